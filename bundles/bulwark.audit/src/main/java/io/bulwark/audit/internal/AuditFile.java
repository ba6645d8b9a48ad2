package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.audit.AuditVerification;
import java.io.Closeable;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import javax.crypto.Mac;

/**
 * The audit log file: opened (and locked against a second writer) once, checked end to end, its
 * torn tail moved aside; then each record is written at the end with {@link FileChannel} and synced
 * ({@code force(true)}) before it counts. A write that fails is cut back off the file, so the file
 * only ever holds whole records. The storage quota is enforced here. Writes are serialized; reads
 * share the channel with positional reads.
 */
final class AuditFile implements Closeable {
  private static final System.Logger LOG = System.getLogger(AuditFile.class.getName());

  private final AuditOptions options;
  private final FileChannel channel;
  private final FileLock lock;
  private final SequenceIndex index;
  private final TornTail torn;
  private final AuditVerification openVerdict;
  // Written under the file's lock, read without it (the health check must not wait for an fsync).
  private volatile long size;
  private volatile long lastSequence;
  private String lastHash;
  private boolean nearlyFullReported;
  private volatile String broken;
  private volatile boolean routineFull;

  private AuditFile(
      AuditOptions options, FileChannel channel, FileLock lock, ChainReport report, TornTail torn) {
    this.options = options;
    this.channel = channel;
    this.lock = lock;
    this.index = report.index();
    this.torn = torn;
    this.openVerdict = report.verdict();
    this.size = report.linesEnd();
    this.lastSequence = report.lastSequence();
    this.lastHash = report.lastHash();
  }

  /**
   * Opens the log in {@code options}' folder, creating both if missing, and checks it (HMACs too
   * when {@code hmac} is given).
   *
   * @throws AuditUnavailableException if the folder or file cannot be created, opened or locked
   */
  static AuditFile open(AuditOptions options, Mac hmac) {
    Path file = options.logFile();
    try {
      Files.createDirectories(options.folder());
    } catch (IOException e) {
      throw new AuditUnavailableException(
          "cannot create the audit folder "
              + options.folder()
              + " ("
              + e
              + "): give the Bulwark service user write access to it, or set folder in the"
              + " configuration io.bulwark.audit",
          e);
    }
    boolean existed = Files.exists(file);
    FileChannel channel;
    try {
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new AuditUnavailableException(
          "cannot open the audit log "
              + file
              + " for writing ("
              + e
              + "): give the Bulwark service user write access to it, or set folder in the"
              + " configuration io.bulwark.audit",
          e);
    }
    try {
      FileLock lock = lock(channel, file);
      if (!existed) {
        syncFolder(options.folder());
      }
      ChainReport report = new ChainVerifier(hmac).check(channel, channel.size());
      TornTail torn = null;
      if (report.torn()) {
        torn =
            TornTail.moveAside(
                channel, file, report.lastSequence() + 1, report.linesEnd(), report.tailLength());
        channel.truncate(report.linesEnd());
        channel.force(true);
        LOG.log(Level.WARNING, "Audit log {0}: {1}", file, torn.describe());
      }
      if (!report.verdict().intact()) {
        LOG.log(
            Level.ERROR,
            "Audit log {0} is NOT intact: {1}. It is kept as it is, as evidence; appending"
                + " continues after record {2}. Export it and have it examined.",
            file,
            report.verdict().problem(),
            report.lastSequence());
      }
      return new AuditFile(options, channel, lock, report, torn);
    } catch (IOException | RuntimeException e) {
      try {
        channel.close();
      } catch (IOException closing) {
        e.addSuppressed(closing);
      }
      if (e instanceof AuditUnavailableException unavailable) {
        throw unavailable;
      }
      throw new AuditUnavailableException(
          "cannot read the audit log " + file + " (" + e + "): check the disk and the file", e);
    }
  }

  private static FileLock lock(FileChannel channel, Path file) throws IOException {
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      throw new AuditUnavailableException(
          "the audit log "
              + file
              + " is in use by another Bulwark process (or component): stop it, or give this one"
              + " its own folder",
          null);
    }
    return lock;
  }

  /** Writes {@code record} at the end and syncs it, within the routine part of the quota. */
  synchronized void write(StoredRecord record) {
    write(record, false);
  }

  /**
   * Writes {@code record} at the end and syncs it; a {@code recovery} record may use the reserve.
   *
   * @throws AuditUnavailableException if the quota is reached or the write fails; nothing was
   *     written then
   */
  synchronized void write(StoredRecord record, boolean recovery) {
    if (broken != null) {
      throw new AuditUnavailableException(broken, null);
    }
    if (!channel.isOpen()) {
      throw new AuditUnavailableException(
          "the audit log " + options.logFile() + " is closed (the audit bundle is stopping)", null);
    }
    byte[] bytes = (record.line() + "\n").getBytes(StandardCharsets.UTF_8);
    long limit = recovery ? options.maxBytes() : options.routineLimit();
    // Once a routine record was refused the log is full for every routine record, even one small
    // enough for what is left: a full log does not take a comment after refusing a flood's record.
    if (size + bytes.length > limit || (!recovery && routineFull)) {
      if (!recovery) {
        routineFull = true;
      }
      throw new AuditUnavailableException(fullText(recovery), null);
    }
    long at = size;
    try {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer, at + buffer.position());
      }
      channel.force(true);
    } catch (IOException e) {
      rollBack(at, e);
      throw new AuditUnavailableException(
          "audit record "
              + record.sequence()
              + " was not written to "
              + options.logFile()
              + " ("
              + e
              + "): free space on that disk and check the folder's permissions, then retry",
          e);
    }
    size = at + bytes.length;
    lastSequence = record.sequence();
    lastHash = record.hash();
    index.add(record.sequence(), at);
    reportNearlyFull();
  }

  private void rollBack(long at, IOException cause) {
    try {
      channel.truncate(at);
      channel.force(true);
    } catch (IOException e) {
      cause.addSuppressed(e);
      broken =
          "the audit log "
              + options.logFile()
              + " may end in a partial record after a failed write ("
              + e
              + "); it is refused until Bulwark restarts and moves that record aside";
      LOG.log(Level.ERROR, broken);
    }
  }

  /** Returns why a record was refused for the quota, and what to do. */
  String fullText(boolean recovery) {
    return "audit storage full at "
        + options.logFile()
        + " ("
        + AuditOptions.size(size)
        + " of its "
        + AuditOptions.size(options.maxBytes())
        + " quota"
        + (recovery
            ? ", the part kept for administrators included"
            : "; the last " + AuditOptions.size(options.reserveBytes()) + " is kept for logins")
        + "): audited actions are refused. Export the log (Audit page or GET"
        + " /api/v1/audit/export) and keep the export, then raise the quota"
        + " (BULWARK_AUDIT_MAX_BYTES, or maxBytes of io.bulwark.audit) and restart";
  }

  private void reportNearlyFull() {
    boolean nearlyFull = size >= options.warnBytes();
    if (nearlyFull && !nearlyFullReported) {
      LOG.log(
          Level.WARNING,
          "Audit log {0} is over {1}% of its quota ({2} of {3}): export it and raise the quota"
              + " (BULWARK_AUDIT_MAX_BYTES, or maxBytes of io.bulwark.audit) before audited"
              + " actions are refused",
          options.logFile(),
          options.warnPercent(),
          AuditOptions.size(size),
          AuditOptions.size(options.maxBytes()));
    }
    nearlyFullReported = nearlyFull;
  }

  /** Returns true once a routine record was refused for the quota, or the routine part is used. */
  boolean routineFull() {
    return routineFull || size >= options.routineLimit();
  }

  /** Returns why the log refuses every write until a restart, or null. */
  String broken() {
    return broken;
  }

  static void syncFolder(Path folder) {
    try (FileChannel dir = FileChannel.open(folder, StandardOpenOption.READ)) {
      dir.force(true);
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "cannot sync the folder {0}: {1}", folder, e);
    }
  }

  FileChannel channel() {
    return channel;
  }

  SequenceIndex index() {
    return index;
  }

  long size() {
    return size;
  }

  long lastSequence() {
    return lastSequence;
  }

  synchronized String lastHash() {
    return lastHash;
  }

  /** Returns the torn tail moved aside when the log was opened, or null. */
  TornTail torn() {
    return torn;
  }

  AuditVerification openVerdict() {
    return openVerdict;
  }

  Path path() {
    return options.logFile();
  }

  @Override
  public synchronized void close() throws IOException {
    if (channel.isOpen()) {
      lock.release();
      channel.close();
    }
  }
}
