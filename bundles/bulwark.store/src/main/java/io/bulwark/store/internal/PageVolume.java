package io.bulwark.store.internal;

import io.bulwark.api.store.StoreUnavailableException;
import java.io.File;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.mapdb.DataInput2;
import org.mapdb.volume.Volume;

/**
 * MapDB's view of a {@link PageFile}: what MapDB writes stays in memory, page by page, until MapDB
 * syncs (on every commit), and then goes to the page file as one transaction. A sync that fails
 * leaves this view unusable: every later call throws {@link StoreUnavailableException}, and the
 * owner opens a fresh view on the last committed state (see {@link MapDbFile}). Closing the view
 * drops what it did not commit and leaves the page file open. Thread-safe.
 */
final class PageVolume extends Volume {
  private static final int SIZE = PageFile.PAGE_SIZE;
  private static final int SHIFT = Integer.numberOfTrailingZeros(SIZE);
  private static final int MASK = SIZE - 1;

  private final PageFile file;
  private Map<Long, byte[]> dirty = new HashMap<>();
  private long length;
  private String unusable;

  PageVolume(PageFile file) {
    this.file = file;
    this.length = file.length();
  }

  /** Returns true if MapDB changed anything since the last sync. */
  synchronized boolean changed() {
    return !dirty.isEmpty() || length > file.length();
  }

  /** Makes this view unusable: a later call says why, and what was not committed is dropped. */
  synchronized void discard(String reason) {
    if (unusable == null) {
      unusable = reason;
    }
    dirty = new HashMap<>();
  }

  private void usable() {
    if (unusable != null) {
      throw new StoreUnavailableException(unusable, null);
    }
  }

  private byte[] readable(long page) {
    byte[] bytes = dirty.get(page);
    return bytes != null ? bytes : file.page(page);
  }

  private byte[] writable(long page) {
    byte[] bytes = dirty.get(page);
    if (bytes == null) {
      bytes = file.page(page).clone();
      dirty.put(page, bytes);
    }
    return bytes;
  }

  private void read(long offset, byte[] into, int at, int size) {
    usable();
    while (size > 0) {
      int inPage = (int) (offset & MASK);
      int n = Math.min(size, SIZE - inPage);
      System.arraycopy(readable(offset >>> SHIFT), inPage, into, at, n);
      offset += n;
      at += n;
      size -= n;
    }
  }

  private void write(long offset, byte[] from, int at, int size) {
    usable();
    length = Math.max(length, offset + size);
    while (size > 0) {
      int inPage = (int) (offset & MASK);
      int n = Math.min(size, SIZE - inPage);
      System.arraycopy(from, at, writable(offset >>> SHIFT), inPage, n);
      offset += n;
      at += n;
      size -= n;
    }
  }

  @Override
  public synchronized void ensureAvailable(long offset) {
    usable();
    length = Math.max(length, offset);
  }

  @Override
  public synchronized void truncate(long size) {
    usable();
    length = size;
    dirty.keySet().removeIf(page -> page << SHIFT >= size);
  }

  @Override
  public synchronized void putLong(long offset, long value) {
    byte[] b = new byte[8];
    for (int i = 7; i >= 0; i--) {
      b[i] = (byte) value;
      value >>>= 8;
    }
    write(offset, b, 0, 8);
  }

  @Override
  public synchronized void putInt(long offset, int value) {
    write(
        offset,
        new byte[] {
          (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value
        },
        0,
        4);
  }

  @Override
  public synchronized void putByte(long offset, byte value) {
    write(offset, new byte[] {value}, 0, 1);
  }

  @Override
  public synchronized void putData(long offset, byte[] src, int srcPos, int srcSize) {
    write(offset, src, srcPos, srcSize);
  }

  @Override
  public synchronized void putData(long offset, ByteBuffer buf) {
    byte[] bytes = new byte[buf.remaining()];
    buf.get(bytes);
    write(offset, bytes, 0, bytes.length);
  }

  @Override
  public synchronized void putDataOverlap(long offset, byte[] src, int srcPos, int srcSize) {
    write(offset, src, srcPos, srcSize);
  }

  @Override
  public synchronized long getLong(long offset) {
    byte[] b = new byte[8];
    read(offset, b, 0, 8);
    long value = 0;
    for (byte x : b) {
      value = (value << 8) | (x & 0xFF);
    }
    return value;
  }

  @Override
  public synchronized int getInt(long offset) {
    byte[] b = new byte[4];
    read(offset, b, 0, 4);
    return ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
  }

  @Override
  public synchronized byte getByte(long offset) {
    usable();
    return readable(offset >>> SHIFT)[(int) (offset & MASK)];
  }

  @Override
  public synchronized DataInput2 getDataInput(long offset, int size) {
    byte[] bytes = new byte[size];
    read(offset, bytes, 0, size);
    return new DataInput2.ByteArray(bytes);
  }

  @Override
  public DataInput2 getDataInputOverlap(long offset, int size) {
    return getDataInput(offset, size);
  }

  @Override
  public synchronized void getData(long offset, byte[] bytes, int bytesPos, int size) {
    read(offset, bytes, bytesPos, size);
  }

  @Override
  public synchronized void clear(long startOffset, long endOffset) {
    usable();
    long committedEnd = file.length();
    for (long offset = startOffset; offset < endOffset; ) {
      long page = offset >>> SHIFT;
      int inPage = (int) (offset & MASK);
      int n = (int) Math.min(endOffset - offset, SIZE - inPage);
      // A page past the committed end that nothing wrote is zeros already.
      if (dirty.containsKey(page) || page << SHIFT < committedEnd) {
        java.util.Arrays.fill(writable(page), inPage, inPage + n, (byte) 0);
      }
      offset += n;
    }
    length = Math.max(length, endOffset);
  }

  /**
   * Commits what MapDB wrote since the last sync as one transaction.
   *
   * @throws StoreUnavailableException if it could not be committed; this view is then unusable
   */
  @Override
  public synchronized void sync() {
    usable();
    if (dirty.isEmpty() && length <= file.length()) {
      return;
    }
    Map<Long, byte[]> pages = dirty;
    dirty = new HashMap<>();
    try {
      file.commit(pages, length);
    } catch (RuntimeException e) {
      discard(
          "the store is reopening after a failed commit ("
              + e.getMessage()
              + "); retry the action");
      throw e;
    }
  }

  @Override
  public synchronized void close() {
    if (closed.compareAndSet(false, true)) {
      discard("the store was closed");
    }
  }

  @Override
  public int sliceSize() {
    return -1;
  }

  @Override
  public boolean isSliced() {
    return false;
  }

  @Override
  public synchronized long length() {
    return length;
  }

  @Override
  public boolean isReadOnly() {
    return false;
  }

  @Override
  public File getFile() {
    return file.path().toFile();
  }

  @Override
  public boolean getFileLocked() {
    return true;
  }

  @Override
  public void deleteFile() {
    throw new UnsupportedOperationException("the store never deletes its data file");
  }
}
