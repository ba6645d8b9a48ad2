package io.bulwark.lib.exposition;

import java.util.Arrays;

/**
 * What {@link ExpositionParser} remembers of a target's previous page, line by line, so that a line
 * that repeats the previous page's line at the same place is not read again: for a sample line the
 * bytes of its series key (the metric name and the label set, up to and including the closing
 * brace) and the handle its {@link SeriesSink} gave for it; for a valid comment line the whole
 * line. An exporter's page repeats its series in the same order scrape after scrape, so in the
 * steady state every line is recognised by one vectorised byte comparison and nothing is written
 * here.
 *
 * <p>A key is recognised only if the new line carries exactly the same bytes followed by a blank,
 * so the match is byte for byte, never a hash: a changed label value, a new series, a removed one
 * or a reordered page simply misses and the line is read in full. The page being read is recorded
 * in a second set of arrays from its first miss on (the previous page stays intact for the
 * comparisons of the lines after it); the sets are swapped when the page ends. Not thread-safe: one
 * per parser.
 */
final class LineMemory {
  /** The handle of a comment line remembered whole; see {@link Declaration} for HELP and TYPE. */
  static class WholeLine {}

  /** The handle of a comment line remembered whole that declares nothing. */
  static final WholeLine WHOLE_LINE = new WholeLine();

  /**
   * The handle of a {@code # HELP} ({@code type} null) or {@code # TYPE} line remembered whole,
   * with what it declares, so that a repeated line still counts for the page's families.
   */
  static final class Declaration extends WholeLine {
    final String name;
    final String type;

    Declaration(String name, String type) {
      this.name = name;
      this.type = type;
    }
  }

  private static final int NOT_REMEMBERED = -1;

  private byte[] keys = new byte[0];
  private int[] keyStarts = new int[0];
  private int[] keyEnds = new int[0];
  private Object[] handles = new Object[0];
  private String[] names = new String[0];
  private int lines;

  private byte[] nextKeys;
  private int[] nextStarts;
  private int[] nextEnds;
  private Object[] nextHandles;
  private String[] nextNames;
  private int nextUsed;
  private boolean diverged;
  private int keyLength;
  private String recalledName;

  /** Starts a page. */
  void begin() {
    diverged = false;
  }

  /**
   * Returns the handle remembered for line {@code ordinal} (0 = the page's first line) if the bytes
   * of {@code b} from {@code from} repeat it: a sample key followed by a blank, or a comment line
   * followed by the end of the line. {@code length} is where the bytes end: the page's end when the
   * line's end is not known yet (a remembered key holds no newline, so matching bytes lie within
   * the line), or the line's end. Returns null otherwise. On a hit, {@link #keyLength()} is the
   * length of the key.
   */
  Object recallAt(int ordinal, byte[] b, int from, int length) {
    if (ordinal >= lines || keyStarts[ordinal] == NOT_REMEMBERED) {
      return null;
    }
    int start = keyStarts[ordinal];
    int keyBytes = keyEnds[ordinal] - start;
    Object handle = handles[ordinal];
    int after = from + keyBytes;
    if (handle instanceof WholeLine) {
      boolean lineEnds =
          after == length
              || (after < length
                  && (b[after] == '\n'
                      || (b[after] == '\r' && (after + 1 == length || b[after + 1] == '\n'))));
      if (!lineEnds) {
        return null;
      }
    } else if (after >= length || !ExpositionParser.isBlank(b[after])) {
      return null;
    }
    if (!Arrays.equals(keys, start, start + keyBytes, b, from, after)) {
      return null;
    }
    keyLength = keyBytes;
    recalledName = names[ordinal];
    return handle;
  }

  /** Returns the metric name of the sample line {@link #recallAt} last recognised. */
  String recalledName() {
    return recalledName;
  }

  /** Returns the length of the key of the last line {@link #recallAt} recognised. */
  int keyLength() {
    return keyLength;
  }

  /**
   * Records that line {@code ordinal} repeated the previous page's line, as {@link #recallAt} said.
   */
  void repeated(int ordinal) {
    if (diverged) {
      int start = keyStarts[ordinal];
      int length = keyEnds[ordinal] - start;
      ensureNextRoom(ordinal + 1, length);
      System.arraycopy(keys, start, nextKeys, nextUsed, length);
      nextStarts[ordinal] = nextUsed;
      nextUsed += length;
      nextEnds[ordinal] = nextUsed;
      nextHandles[ordinal] = handles[ordinal];
      nextNames[ordinal] = names[ordinal];
    }
  }

  /**
   * Records how line {@code ordinal}, which {@link #recallAt} did not recognise, was read: its key
   * {@code [from, to)} of {@code b} and the handle to recall it by, or, with a null handle, that it
   * is not to be remembered (a blank or malformed line, a comment that is not HELP or TYPE...).
   * Lines are recorded in order.
   */
  void record(int ordinal, byte[] b, int from, int to, Object handle) {
    record(ordinal, b, from, to, handle, null);
  }

  /**
   * As {@link #record(int, byte[], int, int, Object)}, for a sample line of metric {@code name}.
   */
  void record(int ordinal, byte[] b, int from, int to, Object handle, String name) {
    if (!diverged) {
      if (handle == null && ordinal < lines && keyStarts[ordinal] == NOT_REMEMBERED) {
        return;
      }
      diverge(ordinal);
    }
    ensureNextRoom(ordinal + 1, handle == null ? 0 : to - from);
    if (handle == null) {
      nextStarts[ordinal] = NOT_REMEMBERED;
      nextEnds[ordinal] = NOT_REMEMBERED;
    } else {
      System.arraycopy(b, from, nextKeys, nextUsed, to - from);
      nextStarts[ordinal] = nextUsed;
      nextUsed += to - from;
      nextEnds[ordinal] = nextUsed;
    }
    nextHandles[ordinal] = handle;
    nextNames[ordinal] = handle == null ? null : name;
  }

  /** Ends a page of {@code lineCount} lines. */
  void end(int lineCount) {
    if (!diverged) {
      if (lineCount >= lines) {
        return;
      }
      diverge(lineCount);
    }
    Arrays.fill(nextHandles, lineCount, nextHandles.length, null);
    Arrays.fill(nextNames, lineCount, nextNames.length, null);
    keys = nextKeys;
    keyStarts = nextStarts;
    keyEnds = nextEnds;
    handles = nextHandles;
    names = nextNames;
    lines = lineCount;
    // The previous page's arrays are dropped rather than kept for the next change, which is rare
    // once an exporter's page has settled: the memory is the keys of one page, not two.
    nextKeys = null;
    nextStarts = null;
    nextEnds = null;
    nextHandles = null;
    nextNames = null;
  }

  /** Forgets everything, as for another target's pages. */
  void clear() {
    keys = new byte[0];
    keyStarts = new int[0];
    keyEnds = new int[0];
    handles = new Object[0];
    names = new String[0];
    lines = 0;
    nextKeys = null;
    nextStarts = null;
    nextEnds = null;
    nextHandles = null;
    nextNames = null;
    diverged = false;
  }

  /** Starts the next page's record with the {@code ordinal} lines before it, which repeated. */
  private void diverge(int ordinal) {
    diverged = true;
    int prefixBytes = 0;
    for (int i = ordinal - 1; i >= 0; i--) {
      if (keyStarts[i] != NOT_REMEMBERED) {
        prefixBytes = keyEnds[i];
        break;
      }
    }
    int lineRoom = Math.max(16, Math.max(lines, ordinal + 1));
    nextKeys = new byte[Math.max(1024, Math.max(keys.length, prefixBytes + 256))];
    nextStarts = new int[lineRoom];
    nextEnds = new int[lineRoom];
    nextHandles = new Object[lineRoom];
    nextNames = new String[lineRoom];
    System.arraycopy(keys, 0, nextKeys, 0, prefixBytes);
    System.arraycopy(keyStarts, 0, nextStarts, 0, ordinal);
    System.arraycopy(keyEnds, 0, nextEnds, 0, ordinal);
    System.arraycopy(handles, 0, nextHandles, 0, ordinal);
    System.arraycopy(names, 0, nextNames, 0, ordinal);
    nextUsed = prefixBytes;
  }

  private void ensureNextRoom(int lineCount, int keyBytes) {
    if (lineCount > nextStarts.length) {
      int grown = Math.max(lineCount, nextStarts.length * 2);
      nextStarts = Arrays.copyOf(nextStarts, grown);
      nextEnds = Arrays.copyOf(nextEnds, grown);
      nextHandles = Arrays.copyOf(nextHandles, grown);
      nextNames = Arrays.copyOf(nextNames, grown);
    }
    if (nextUsed + keyBytes > nextKeys.length) {
      nextKeys = Arrays.copyOf(nextKeys, Math.max(nextUsed + keyBytes, nextKeys.length * 2));
    }
  }
}
