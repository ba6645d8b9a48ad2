package io.bulwark.store.internal;

import io.bulwark.api.store.StoreUnavailableException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A data file changed only by whole transactions: the pages a transaction changed are first written
 * to a redo journal and synced (the commit), then written over the data file and synced. The
 * journal always holds the last transaction, or a newer one that did not finish: if Bulwark stops
 * at any point, the next open replays a journal that committed (writing pages that are already
 * there is harmless) and discards one that did not, so the data file always holds exactly the
 * committed transactions. A clean close empties the journal.
 *
 * <p>A write that fails changes nothing that was committed. A transaction refused before its
 * journal was on disk is simply not there; one whose journal is on disk but could not yet be
 * written over the data file is kept in memory, served to readers, and written again before the
 * next commit (and replayed at the next open if Bulwark stops first). Both files stay open, so a
 * commit needs no new file descriptor. Thread-safe. Used by {@link PageVolume}, MapDB's view of it.
 */
final class PageFile implements AutoCloseable {
  static final int PAGE_SIZE = 4096;
  static final String JOURNAL_SUFFIX = ".journal";

  private static final System.Logger LOG = System.getLogger(PageFile.class.getName());
  private static final FileAttribute<?> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
  private static final byte[] ZERO_PAGE = new byte[PAGE_SIZE];

  private final Path dataPath;
  private final Path journalPath;
  private final Map<Long, byte[]> cache;
  private final Map<Long, byte[]> unapplied = new HashMap<>();
  private FileChannel data;
  private FileChannel journal;
  private FileLock lock;
  private long length;
  private long sequence;
  private long commits;
  private String recovery;

  private PageFile(Path dataPath, int cachedPages) {
    this.dataPath = dataPath;
    this.journalPath = dataPath.resolveSibling(dataPath.getFileName() + JOURNAL_SUFFIX);
    this.cache =
        new LinkedHashMap<>(256, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
            return size() > cachedPages;
          }
        };
  }

  /**
   * Opens the data file, creating it (owner-only permissions) if missing, and brings it to its last
   * committed transaction.
   *
   * @param cachedPages how many clean pages to keep in memory
   * @throws IOException if the files cannot be opened or read
   * @throws IllegalStateException if another process holds the data file
   */
  static PageFile open(Path dataPath, int cachedPages) throws IOException {
    PageFile file = new PageFile(dataPath, cachedPages);
    try {
      file.openChannels();
      file.recover();
    } catch (IOException | RuntimeException e) {
      file.closeChannels();
      throw e;
    }
    return file;
  }

  private void openChannels() throws IOException {
    Set<StandardOpenOption> rw =
        Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    data = posix ? FileChannel.open(dataPath, rw, OWNER_ONLY) : FileChannel.open(dataPath, rw);
    try {
      lock = data.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      data.close();
      throw new IllegalStateException(
          dataPath
              + " is in use by another process (is another Bulwark running on the same"
              + " BULWARK_DATA_DIR?)");
    }
    journal =
        posix ? FileChannel.open(journalPath, rw, OWNER_ONLY) : FileChannel.open(journalPath, rw);
  }

  /** Replays a committed journal, discards one that did not commit, and reads the length. */
  private void recover() throws IOException {
    long journalBytes = journal.size();
    PageJournal.Transaction committed = PageJournal.read(journal, PAGE_SIZE);
    if (committed != null) {
      apply(committed.pages(), committed.length());
      sequence = committed.sequence();
      recovery =
          "replayed the last committed transaction ("
              + committed.pages().size()
              + " page(s)) from "
              + journalPath.getFileName()
              + ": Bulwark had not stopped cleanly";
      LOG.log(Level.INFO, "Store {0}: {1}", dataPath, recovery);
    } else if (journalBytes > 0) {
      recovery =
          "discarded "
              + journalBytes
              + " bytes of an unfinished transaction in "
              + journalPath.getFileName()
              + " (it had not committed when Bulwark stopped; nothing committed was lost)";
      LOG.log(Level.WARNING, "Store {0}: {1}", dataPath, recovery);
    }
    if (journalBytes > 0) {
      journal.truncate(0);
      journal.force(true);
    }
    length = data.size();
  }

  /** Returns what the last open found in the journal, or null if it was empty. */
  synchronized String recovery() {
    return recovery;
  }

  /** Returns the committed length in bytes. */
  synchronized long length() {
    return length;
  }

  /** Returns how many transactions committed since the file was opened. */
  synchronized long commits() {
    return commits;
  }

  /** Returns true while a committed transaction waits to be written over the data file. */
  synchronized boolean applyPending() {
    return !unapplied.isEmpty();
  }

  Path path() {
    return dataPath;
  }

  /**
   * Returns the committed content of a page: a shared array the caller must not change. A page past
   * the end of the file reads as zeros.
   */
  synchronized byte[] page(long number) {
    byte[] bytes = unapplied.get(number);
    if (bytes == null) {
      bytes = cache.get(number);
    }
    if (bytes != null) {
      return bytes;
    }
    if (number * PAGE_SIZE >= length) {
      return ZERO_PAGE;
    }
    byte[] read = new byte[PAGE_SIZE];
    boolean interrupted = Thread.interrupted();
    try {
      ensureOpen();
      readFully(ByteBuffer.wrap(read), number * PAGE_SIZE);
    } catch (IOException e) {
      throw new StoreUnavailableException(
          "the store cannot read " + dataPath + " (" + e + "); check the disk", e);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    cache.put(number, read);
    return read;
  }

  private void readFully(ByteBuffer buffer, long at) throws IOException {
    while (buffer.hasRemaining()) {
      if (data.read(buffer, at + buffer.position()) < 0) {
        break; // past the end of a file that was extended with a hole: zeros
      }
    }
  }

  /**
   * Commits a transaction: {@code pages} (page number to its full new content, which this file
   * takes over) and the file's new length.
   *
   * @throws StoreUnavailableException if the transaction could not be committed; nothing changed
   */
  synchronized void commit(Map<Long, byte[]> pages, long newLength) {
    if (pages.isEmpty() && newLength <= length) {
      return;
    }
    // An interrupted thread would close the channels in the middle of the commit: clear the flag
    // for the duration and restore it afterwards.
    boolean interrupted = Thread.interrupted();
    try {
      commitUninterrupted(pages, newLength);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void commitUninterrupted(Map<Long, byte[]> pages, long newLength) {
    try {
      ensureOpen();
    } catch (IOException e) {
      throw new StoreUnavailableException(
          "the store cannot open "
              + dataPath
              + " again ("
              + e.getMessage()
              + "); nothing was changed. Check the process's file limit and the disk",
          e);
    }
    writePendingOrRefuse();
    long before = length;
    try {
      if (newLength > before) {
        extend(before, newLength);
      }
      ByteBuffer image =
          PageJournal.encode(sequence + 1, Math.max(newLength, before), pages, PAGE_SIZE);
      writeJournal(image);
    } catch (IOException e) {
      undoExtension(before, e);
      throw new StoreUnavailableException(
          "the store could not commit a change to "
              + dataPath
              + " ("
              + e.getMessage()
              + "); nothing was changed. Free space on that disk and check the process's file"
              + " limit; the store retries by itself",
          e);
    }
    sequence++;
    commits++;
    length = Math.max(newLength, before);
    pages.forEach(cache::put);
    try {
      apply(pages, length);
    } catch (IOException e) {
      unapplied.putAll(pages);
      LOG.log(
          Level.WARNING,
          "Store {0}: a committed change is safe in {1} but could not be written over the data"
              + " file yet ({2}); it is written again before the next change, or replayed at the"
              + " next start",
          dataPath,
          journalPath.getFileName(),
          e.toString());
    }
  }

  private void writePendingOrRefuse() {
    if (unapplied.isEmpty()) {
      return;
    }
    try {
      apply(unapplied, length);
      unapplied.clear();
    } catch (IOException e) {
      throw new StoreUnavailableException(
          "the store holds a committed change that it cannot yet write over "
              + dataPath
              + " ("
              + e.getMessage()
              + "); it refuses new changes until it can. Free space on that disk and check the"
              + " process's file limit",
          e);
    }
  }

  private void extend(long from, long to) throws IOException {
    ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
    for (long at = from; at < to; ) {
      zeros.clear().limit((int) Math.min(zeros.capacity(), to - at));
      at += write(data, zeros, at);
    }
    data.force(false);
  }

  private void undoExtension(long before, IOException cause) {
    try {
      if (data.size() > before) {
        data.truncate(before);
      }
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Writes the journal over the previous one, in place: the previous transaction is already in the
   * data file, and overwriting allocated blocks costs one data sync, no metadata. Bytes of a longer
   * earlier journal past the end stay; the header's page count and the checksum ignore them.
   */
  private void writeJournal(ByteBuffer image) throws IOException {
    write(journal, image, 0);
    journal.force(false);
  }

  private void apply(Map<Long, byte[]> pages, long newLength) throws IOException {
    for (Map.Entry<Long, byte[]> e : pages.entrySet()) {
      write(data, ByteBuffer.wrap(e.getValue()), e.getKey() * PAGE_SIZE);
    }
    if (data.size() < newLength) {
      write(data, ByteBuffer.allocate(1), newLength - 1);
    }
    data.force(false);
  }

  private int write(FileChannel channel, ByteBuffer from, long at) throws IOException {
    int written = 0;
    while (from.hasRemaining()) {
      written += channel.write(from, at + written);
    }
    return written;
  }

  /**
   * A thread interrupted in the middle of a read or write closes the channels for everyone: open
   * them again, so that one interrupted caller does not break the store.
   */
  private void ensureOpen() throws IOException {
    if (data.isOpen() && journal.isOpen()) {
      return;
    }
    LOG.log(
        Level.INFO, "Store {0}: reopening its files after an interrupted read or write", dataPath);
    closeChannels();
    openChannels();
  }

  private void closeChannels() {
    for (AutoCloseable c : new AutoCloseable[] {lock, data, journal}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        LOG.log(Level.DEBUG, "closing {0}: {1}", dataPath, e);
      }
    }
  }

  /** Writes a pending change if it can, and closes both files. */
  @Override
  public synchronized void close() {
    if (!unapplied.isEmpty()) {
      try {
        writePendingOrRefuse();
      } catch (StoreUnavailableException e) {
        LOG.log(
            Level.WARNING,
            "Store {0}: closing with a committed change still in {1}; the next start replays it",
            dataPath,
            journalPath.getFileName());
        closeChannels();
        return;
      }
    }
    try {
      // Everything is in the data file: an empty journal tells the next start it stopped cleanly.
      journal.truncate(0);
      journal.force(true);
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "emptying {0}: {1}", journalPath, e);
    }
    closeChannels();
  }
}
