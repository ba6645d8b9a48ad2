package io.bulwark.lib.exposition;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns byte ranges of a scraped page into Strings, handing out the same String for the same bytes,
 * so that the metric names, label names and label values that every scrape repeats are decoded
 * once. Bounded: when full it starts over. Used by one parser at a time; not thread-safe.
 */
final class NameTable {
  private final int maxEntries;
  private final byte[][] keys;
  private final String[] strings;
  private final int[] hashes;
  private final int mask;
  private int size;

  /** Creates a table that holds up to {@code maxEntries} names before it starts over. */
  NameTable(int maxEntries) {
    this.maxEntries = maxEntries;
    int capacity = Integer.highestOneBit(Math.max(16, maxEntries * 2 - 1)) << 1;
    keys = new byte[capacity][];
    strings = new String[capacity];
    hashes = new int[capacity];
    mask = capacity - 1;
  }

  /** Returns the String of the UTF-8 bytes {@code [from, to)} of {@code bytes}. */
  String intern(byte[] bytes, int from, int to) {
    int hash = 1;
    for (int i = from; i < to; i++) {
      hash = 31 * hash + bytes[i];
    }
    int slot = hash & mask;
    while (true) {
      byte[] key = keys[slot];
      if (key == null) {
        String string = new String(bytes, from, to - from, StandardCharsets.UTF_8);
        if (size >= maxEntries) {
          clear();
          slot = hash & mask;
        }
        keys[slot] = Arrays.copyOfRange(bytes, from, to);
        strings[slot] = string;
        hashes[slot] = hash;
        size++;
        return string;
      }
      if (hashes[slot] == hash && Arrays.equals(key, 0, key.length, bytes, from, to)) {
        return strings[slot];
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Returns how many names the table holds. */
  int size() {
    return size;
  }

  private void clear() {
    Arrays.fill(keys, null);
    Arrays.fill(strings, null);
    size = 0;
  }
}
