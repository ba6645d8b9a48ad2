package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.SeriesId;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * Reads a roll-up file ({@link RollupFormat}) block by block and hands its series and minute
 * records to a {@link Visitor}. A block that is cut short, framed wrongly or fails its CRC (the
 * last block after a crash, or damage) ends the reading of that file with a WARNING naming the file
 * and the block's offset; the blocks before it are kept, and reading never throws for bad content.
 * Used by the {@link RollupArchive} on start; not thread-safe.
 */
final class RollupFileReader {
  private static final System.Logger LOG = System.getLogger(RollupFileReader.class.getName());

  private final CRC32 crc = new CRC32();
  private final ByteBuffer head = ByteBuffer.allocate(RollupFormat.FRAME_HEAD_BYTES);
  private final ByteBuffer tail = ByteBuffer.allocate(RollupFormat.CRC_BYTES);
  private ByteBuffer payload = ByteBuffer.allocate(1 << 16);

  /** Receives what a file holds, in file order. */
  interface Visitor {
    /** Series {@code index} of the file is {@code series}. */
    void series(int index, SeriesId series);

    /** Series {@code index} had {@code count} samples in {@code minute} (epoch minutes). */
    void minute(long minute, int index, float min, float avg, float max, int count);
  }

  /**
   * What reading a file gave.
   *
   * @param blocks blocks read whole
   * @param problem why reading stopped early, naming the file and offset; empty if it did not
   */
  record Outcome(int blocks, String problem) {
    boolean complete() {
      return problem.isEmpty();
    }
  }

  /**
   * Reads {@code file}, calling {@code visitor} with its content.
   *
   * @throws IOException if the file cannot be opened or read at all
   */
  Outcome read(Path file, Visitor visitor) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      long offset = 0;
      int blocks = 0;
      int seriesKnown = 0;
      while (offset < size) {
        String problem = readBlock(channel, offset, size);
        if (problem == null) {
          byte type = head.get(0);
          try {
            if (blocks == 0) {
              problem = checkHeader(type);
            } else if (type == RollupFormat.SERIES) {
              problem = readSeries(visitor, seriesKnown);
            } else if (type == RollupFormat.MINUTES) {
              problem = readMinutes(visitor, seriesKnown);
            } else {
              problem = "a second header block";
            }
            if (problem == null && type == RollupFormat.SERIES) {
              seriesKnown = payload.getInt(4) + payload.getInt(0);
            }
          } catch (BufferUnderflowException | IOException | IllegalArgumentException e) {
            problem = "its content does not parse: " + e;
          }
        }
        if (problem != null) {
          return stopped(file, offset, size, blocks, problem);
        }
        offset += RollupFormat.FRAME_HEAD_BYTES + payload.limit() + RollupFormat.CRC_BYTES;
        blocks++;
      }
      return new Outcome(blocks, "");
    }
  }

  /** Reads the block at {@code offset} into head and payload; returns what is wrong, or null. */
  private String readBlock(FileChannel channel, long offset, long size) throws IOException {
    long left = size - offset;
    if (left < RollupFormat.FRAME_HEAD_BYTES + RollupFormat.CRC_BYTES) {
      return "only " + left + " bytes are left, too few for a block";
    }
    head.clear();
    readFully(channel, head, offset);
    byte type = head.get(0);
    int length = head.getInt(1);
    if (type != RollupFormat.HEADER
        && type != RollupFormat.SERIES
        && type != RollupFormat.MINUTES) {
      return "unknown block type " + (type & 0xff);
    }
    if (length < 0 || length > RollupFormat.MAX_PAYLOAD) {
      return "impossible block length " + length;
    }
    if (length > left - RollupFormat.FRAME_HEAD_BYTES - RollupFormat.CRC_BYTES) {
      return "the block needs " + length + " bytes but the file ends first";
    }
    if (payload.capacity() < length) {
      payload = ByteBuffer.allocate(Math.max(length, payload.capacity() * 2));
    }
    payload.clear().limit(length);
    readFully(channel, payload, offset + RollupFormat.FRAME_HEAD_BYTES);
    payload.flip();
    tail.clear();
    readFully(channel, tail, offset + RollupFormat.FRAME_HEAD_BYTES + length);
    if (tail.getInt(0) != RollupFormat.crc(crc, type, payload)) {
      return "its CRC does not match";
    }
    return null;
  }

  private String checkHeader(byte type) {
    if (type != RollupFormat.HEADER
        || payload.getInt() != RollupFormat.MAGIC
        || payload.getInt() != RollupFormat.VERSION) {
      return "it is not a version " + RollupFormat.VERSION + " roll-up file header";
    }
    return null;
  }

  private String readSeries(Visitor visitor, int seriesKnown) throws IOException {
    DataInputStream in =
        new DataInputStream(
            new ByteArrayInputStream(payload.array(), payload.arrayOffset(), payload.limit()));
    int first = in.readInt();
    int count = in.readInt();
    if (first != seriesKnown || count < 0) {
      return "series "
          + first
          + ".."
          + (first + count)
          + " do not follow the "
          + seriesKnown
          + " series before";
    }
    for (int i = 0; i < count; i++) {
      int gpu = in.readShort();
      NodeId node = NodeId.of(in.readUTF());
      visitor.series(first + i, SeriesId.of(node, gpu, in.readUTF()));
    }
    return null;
  }

  private String readMinutes(Visitor visitor, int seriesKnown) {
    long minute = payload.getLong();
    int first = payload.getInt();
    int count = payload.getInt();
    if (first < 0
        || count < 0
        || count > seriesKnown - first
        || payload.remaining() != count * RollupFormat.RECORD_BYTES) {
      return "minute records "
          + first
          + ".."
          + (first + count)
          + " do not match the "
          + seriesKnown
          + " series named";
    }
    for (int i = 0; i < count; i++) {
      float min = payload.getFloat();
      float avg = payload.getFloat();
      float max = payload.getFloat();
      int samples = payload.getChar();
      if (samples > 0) {
        visitor.minute(minute, first + i, min, avg, max, samples);
      }
    }
    return null;
  }

  private static Outcome stopped(Path file, long offset, long size, int blocks, String problem) {
    String message =
        "Roll-up file "
            + file
            + ": the block at offset "
            + offset
            + " is torn or corrupt ("
            + problem
            + "); skipped it and the rest of the file ("
            + (size - offset)
            + " bytes). The "
            + blocks
            + " blocks before it were read. Expected once after a crash; if it repeats, check the"
            + " disk.";
    LOG.log(Level.WARNING, message);
    return new Outcome(blocks, message);
  }

  private static void readFully(FileChannel channel, ByteBuffer into, long position)
      throws IOException {
    long at = position;
    while (into.hasRemaining()) {
      int read = channel.read(into, at);
      if (read < 0) {
        throw new IOException("the file ended while a block was read");
      }
      at += read;
    }
  }
}
