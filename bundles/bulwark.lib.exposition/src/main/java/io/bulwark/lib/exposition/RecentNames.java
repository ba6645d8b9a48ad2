package io.bulwark.lib.exposition;

import java.util.Arrays;

/**
 * Remembers the name last seen at each position of a line (the metric name, the n-th label name or
 * value), so that the next line, which on an exporter's page almost always repeats it, gets the
 * String back by comparing a few bytes instead of hashing them. Misses go to the {@link NameTable}.
 * Not thread-safe.
 */
final class RecentNames {
  private final NameTable table;
  private byte[][] bytes = new byte[8][];
  private String[] strings = new String[8];

  RecentNames(NameTable table) {
    this.table = table;
  }

  /**
   * Returns the String of the bytes {@code [from, to)} of {@code page} seen at position {@code
   * slot}.
   */
  String get(int slot, byte[] page, int from, int to) {
    if (slot < bytes.length) {
      byte[] recent = bytes[slot];
      if (recent != null && Arrays.equals(recent, 0, recent.length, page, from, to)) {
        return strings[slot];
      }
    } else {
      int grown = Math.max(slot + 1, bytes.length * 2);
      bytes = Arrays.copyOf(bytes, grown);
      strings = Arrays.copyOf(strings, grown);
    }
    String name = table.intern(page, from, to);
    bytes[slot] = Arrays.copyOfRange(page, from, to);
    strings[slot] = name;
    return name;
  }
}
