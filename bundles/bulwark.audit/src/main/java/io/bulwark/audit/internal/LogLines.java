package io.bulwark.audit.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * Reads the lines of an audit log between two byte offsets with positional reads, so that several
 * readers and the appender share one channel. Each line comes with its byte offset; bytes after the
 * last line end are not a line but a tail (an append cut short), reported by {@link #tailLength()}
 * once {@link #next()} has returned null. Lines longer than {@link #MAX_LINE} are returned without
 * their bytes.
 */
final class LogLines {
  static final int MAX_LINE = 1 << 20;

  /** One line without its line end; {@code bytes} is null when the line was too long to keep. */
  record Line(long offset, byte[] bytes, int length) {
    boolean oversized() {
      return bytes == null;
    }

    /** Returns the offset just after this line's line end. */
    long end() {
      return offset + length + 1;
    }
  }

  private final FileChannel channel;
  private final long end;
  private final byte[] buffer = new byte[64 * 1024];
  private long bufferStart;
  private int bufferLength;
  private int bufferPos;
  private long tailOffset = -1;
  private long tailLength;

  LogLines(FileChannel channel, long start, long end) {
    this.channel = channel;
    this.end = end;
    this.bufferStart = start;
  }

  /** Returns the next complete line, or null at the end. */
  Line next() throws IOException {
    long lineStart = bufferStart + bufferPos;
    byte[] line = new byte[256];
    int kept = 0;
    long total = 0;
    boolean oversized = false;
    while (true) {
      if (bufferPos == bufferLength && !fill()) {
        if (total > 0) {
          tailOffset = lineStart;
          tailLength = total;
        }
        return null;
      }
      int newline = indexOfNewline();
      int stop = newline < 0 ? bufferLength : newline;
      int n = stop - bufferPos;
      total += n;
      if (!oversized && total <= MAX_LINE) {
        if (kept + n > line.length) {
          line = Arrays.copyOf(line, Math.max(kept + n, line.length * 2));
        }
        System.arraycopy(buffer, bufferPos, line, kept, n);
        kept += n;
      } else {
        oversized = true;
      }
      bufferPos = stop;
      if (newline >= 0) {
        bufferPos++;
        return new Line(
            lineStart, oversized ? null : line, (int) Math.min(total, Integer.MAX_VALUE));
      }
    }
  }

  /** Returns the offset of the bytes after the last line end, or -1 when there are none. */
  long tailOffset() {
    return tailOffset;
  }

  long tailLength() {
    return tailLength;
  }

  private int indexOfNewline() {
    for (int i = bufferPos; i < bufferLength; i++) {
      if (buffer[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private boolean fill() throws IOException {
    long position = bufferStart + bufferLength;
    if (position >= end) {
      return false;
    }
    int want = (int) Math.min(buffer.length, end - position);
    ByteBuffer target = ByteBuffer.wrap(buffer, 0, want);
    int read = 0;
    while (target.hasRemaining()) {
      int n = channel.read(target, position + read);
      if (n < 0) {
        break;
      }
      read += n;
    }
    if (read == 0) {
      return false;
    }
    bufferStart = position;
    bufferLength = read;
    bufferPos = 0;
    return true;
  }
}
