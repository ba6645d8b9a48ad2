package io.bulwark.store.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The redo journal of a {@link PageFile}: one committed transaction at a time, as full images of
 * the pages it changed, followed by a checksum. A transaction is committed once its journal is on
 * disk; a journal that is empty, torn or fails its checksum holds no committed transaction.
 *
 * <p>Layout (big-endian): magic {@code BWPJ0001}, page size, sequence number, file length after the
 * transaction, page count; then each page's number and bytes; then the CRC-32C of all of that and
 * the magic {@code BWPJDONE}. CRC-32C guards against torn and partial writes, not against an
 * attacker (the audit log is the tamper-evident record).
 */
final class PageJournal {
  static final long MAGIC = 0x4257504A30303031L; // "BWPJ0001"
  static final long DONE = 0x4257504A444F4E45L; // "BWPJDONE"
  private static final int HEADER_BYTES = 8 + 4 + 8 + 8 + 4;
  private static final int TRAILER_BYTES = 4 + 8;

  private PageJournal() {}

  /** One committed transaction read back from a journal. */
  record Transaction(long sequence, long length, SortedMap<Long, byte[]> pages) {}

  /** Returns the journal image of a transaction: header, pages in ascending order, trailer. */
  static ByteBuffer encode(long sequence, long length, Map<Long, byte[]> pages, int pageSize) {
    SortedMap<Long, byte[]> sorted = new TreeMap<>(pages);
    long bytes = (long) HEADER_BYTES + (long) sorted.size() * (8 + pageSize) + TRAILER_BYTES;
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "a transaction of " + sorted.size() + " pages is too large for one journal");
    }
    ByteBuffer out = ByteBuffer.allocate((int) bytes);
    out.putLong(MAGIC).putInt(pageSize).putLong(sequence).putLong(length).putInt(sorted.size());
    for (Map.Entry<Long, byte[]> e : sorted.entrySet()) {
      if (e.getValue().length != pageSize) {
        throw new IllegalArgumentException("page " + e.getKey() + " is not " + pageSize + " bytes");
      }
      out.putLong(e.getKey()).put(e.getValue());
    }
    CRC32C crc = new CRC32C();
    crc.update(out.array(), 0, out.position());
    out.putInt((int) crc.getValue()).putLong(DONE);
    return out.flip();
  }

  /**
   * Reads the journal's transaction.
   *
   * @return the transaction, or null if the journal holds none that committed (empty, torn, or a
   *     failed checksum)
   */
  static Transaction read(FileChannel journal, int pageSize) throws IOException {
    long size = journal.size();
    if (size < HEADER_BYTES + TRAILER_BYTES) {
      return null;
    }
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    readFully(journal, header, 0);
    header.flip();
    if (header.getLong() != MAGIC || header.getInt() != pageSize) {
      return null;
    }
    long sequence = header.getLong();
    long length = header.getLong();
    int count = header.getInt();
    long expected = HEADER_BYTES + (long) count * (8 + pageSize) + TRAILER_BYTES;
    if (count < 0 || length < 0 || expected > size) {
      return null;
    }
    ByteBuffer all = ByteBuffer.allocate((int) expected);
    readFully(journal, all, 0);
    CRC32C crc = new CRC32C();
    crc.update(all.array(), 0, (int) expected - TRAILER_BYTES);
    all.position((int) expected - TRAILER_BYTES);
    if (all.getInt() != (int) crc.getValue() || all.getLong() != DONE) {
      return null;
    }
    all.position(HEADER_BYTES);
    SortedMap<Long, byte[]> pages = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      long page = all.getLong();
      byte[] bytes = new byte[pageSize];
      all.get(bytes);
      pages.put(page, bytes);
    }
    return new Transaction(sequence, length, pages);
  }

  private static void readFully(FileChannel channel, ByteBuffer into, long at) throws IOException {
    while (into.hasRemaining()) {
      if (channel.read(into, at + into.position()) < 0) {
        throw new IOException("the journal ended early");
      }
    }
  }
}
