package io.bulwark.store.internal;

import io.bulwark.api.store.StoreUnavailableException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.mapdb.DB;
import org.mapdb.DBException;
import org.mapdb.DBMaker;

/**
 * One MapDB database kept in a {@link PageFile}, for the repositories of the store. Every write is
 * one transaction, committed before {@link #write} returns. A write that fails (disk full, no file
 * descriptor left, an I/O error) changes nothing: its transaction is dropped, the database is
 * opened again at once on the last committed state, and reads go on; the next write tries again, so
 * the store recovers by itself when the cause is gone. Writes are serialized; reads run
 * concurrently with them and with each other.
 *
 * @param <M> the maps (and other MapDB structures) the repositories use, opened by the schema
 */
final class MapDbFile<M> implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(MapDbFile.class.getName());

  /** The database open on the committed state: MapDB's view of the page file and the maps. */
  private record Session<M>(PageVolume volume, DB db, M maps) {}

  private final PageFile file;
  private final DiskReserve reserve;
  private final Function<DB, M> schema;
  private final Clock clock;
  private final Object writing = new Object();
  private final AtomicLong failedWrites = new AtomicLong();
  private final AtomicLong reopens = new AtomicLong();
  private volatile Session<M> session;
  private volatile String failure;
  private volatile Instant failingSince;
  private volatile boolean closed;

  private MapDbFile(PageFile file, DiskReserve reserve, Function<DB, M> schema, Clock clock) {
    this.file = file;
    this.reserve = reserve;
    this.schema = schema;
    this.clock = clock;
  }

  /**
   * Opens (or creates) the database in {@code dataFile}, replaying or discarding what a stop left
   * in its journal.
   *
   * @param schema opens the maps on a database; may create them
   * @throws IOException if the files cannot be opened
   * @throws StoreUnavailableException if a new database cannot be written
   */
  static <M> MapDbFile<M> open(
      Path dataFile, DiskReserve reserve, int cachedPages, Function<DB, M> schema, Clock clock)
      throws IOException {
    PageFile file = PageFile.open(dataFile, cachedPages);
    MapDbFile<M> db = new MapDbFile<>(file, reserve, schema, clock);
    try {
      db.session = db.openSession();
    } catch (RuntimeException e) {
      file.close();
      throw e;
    }
    return db;
  }

  private Session<M> openSession() {
    PageVolume volume = new PageVolume(file);
    try {
      DB db = DBMaker.volumeDB(volume, file.length() > 0).make();
      M maps = schema.apply(db);
      if (volume.changed()) {
        db.commit();
      }
      return new Session<>(volume, db, maps);
    } catch (RuntimeException e) {
      volume.discard("the store could not be opened");
      if (e instanceof StoreUnavailableException) {
        throw e;
      }
      throw new StoreUnavailableException(
          "the store cannot open its database in " + file.path() + " (" + e + ")", e);
    }
  }

  /** Returns the open session, opening one if the last write failed. */
  private Session<M> session() {
    Session<M> s = session;
    if (s != null) {
      return s;
    }
    synchronized (writing) {
      if (closed) {
        throw new StoreUnavailableException(
            "the store " + file.path() + " is closed (Bulwark is stopping)", null);
      }
      if (session == null) {
        session = openSession();
        reopens.incrementAndGet();
        LOG.log(Level.INFO, "Store {0} reopened on its last committed state", file.path());
      }
      return session;
    }
  }

  /**
   * Runs a query on the committed state (and on a write in progress). A query that meets the
   * database being reopened after a failed write runs once more on the new one.
   */
  <T> T read(Function<M, T> query) {
    Session<M> s = session();
    try {
      return query.apply(s.maps());
    } catch (RuntimeException e) {
      if (s == session) {
        throw e;
      }
      return query.apply(session().maps());
    }
  }

  /**
   * Runs {@code change} and commits it as one transaction.
   *
   * @param what the action in an operator's words, e.g. "save finding xid-…"
   * @param priority true for the writes an administrator needs to log in and act (accounts,
   *     tokens): they are let through further into the disk reserve
   * @throws StoreUnavailableException if the change could not be committed; nothing changed
   * @throws RuntimeException what {@code change} threw; nothing it did is kept
   */
  <T> T write(String what, boolean priority, Function<M, T> change) {
    synchronized (writing) {
      try {
        reserve.check(what, priority);
      } catch (StoreUnavailableException e) {
        failed(e.getMessage());
        throw e;
      }
      Session<M> s = session();
      T result;
      try {
        result = change.apply(s.maps());
      } catch (StoreUnavailableException | DBException e) {
        throw refused(s, what, e);
      } catch (RuntimeException e) {
        // The change's own error (a record it refused, a bug): what it did so far is dropped.
        if (s.volume().changed()) {
          rollBack(s);
        }
        throw e;
      }
      try {
        s.db().commit();
      } catch (RuntimeException e) {
        throw refused(s, what, e);
      }
      if (failure != null) {
        LOG.log(Level.INFO, "Store {0} writes again after: {1}", file.path(), failure);
      }
      failure = null;
      failingSince = null;
      return result;
    }
  }

  private StoreUnavailableException refused(Session<M> s, String what, RuntimeException e) {
    StoreUnavailableException refusal =
        e instanceof StoreUnavailableException u
            ? u
            : new StoreUnavailableException(
                "the store could not " + what + " (" + e + "); nothing was changed", e);
    reopen(s, refusal);
    return refusal;
  }

  /** Drops what a change that threw did, by opening the database again on its committed state. */
  private void rollBack(Session<M> s) {
    s.volume().discard("the store is dropping a change that failed; retry the action");
    closeQuietly(s.db());
    session = null;
    try {
      session = openSession();
    } catch (StoreUnavailableException e) {
      LOG.log(
          Level.WARNING,
          "Store {0} cannot reopen yet ({1}); it tries again on the next call",
          file.path(),
          e.getMessage());
    }
  }

  /** Drops the failed session and opens the database again on the last committed state. */
  private void reopen(Session<M> failed, StoreUnavailableException cause) {
    failed(cause.getMessage());
    failed.volume().discard("the store is reopening after a failed write; retry the action");
    closeQuietly(failed.db());
    session = null;
    try {
      session = openSession();
      reopens.incrementAndGet();
    } catch (StoreUnavailableException e) {
      LOG.log(
          Level.WARNING,
          "Store {0} cannot reopen yet ({1}); it tries again on the next call",
          file.path(),
          e.getMessage());
    }
  }

  private void failed(String why) {
    failedWrites.incrementAndGet();
    if (failure == null) {
      failingSince = clock.instant();
      LOG.log(Level.WARNING, "Store {0}: {1}", file.path(), why);
    }
    failure = why;
  }

  private static void closeQuietly(DB db) {
    try {
      db.close();
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "closing a failed store session: {0}", e.toString());
    }
  }

  /** Returns why the last write failed, or null if it succeeded. */
  String failure() {
    return failure;
  }

  /** Returns since when writes fail, or null. */
  Instant failingSince() {
    return failingSince;
  }

  long failedWrites() {
    return failedWrites.get();
  }

  long reopens() {
    return reopens.get();
  }

  PageFile file() {
    return file;
  }

  DiskReserve reserve() {
    return reserve;
  }

  @Override
  public void close() {
    synchronized (writing) {
      if (closed) {
        return;
      }
      closed = true;
      Session<M> s = session;
      session = null;
      if (s != null) {
        closeQuietly(s.db());
      }
      file.close();
    }
  }
}
