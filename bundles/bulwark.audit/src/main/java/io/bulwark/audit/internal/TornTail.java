package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * Bytes found after the last line end of the audit log when it was opened: an append that a crash
 * or power loss cut short, never acknowledged. They are copied, synced, into a {@code .torn} file
 * beside the log before the log is cut back to its last intact record, so that nothing is dropped
 * silently.
 *
 * @param sequence the sequence number the torn record would have had
 * @param offset its byte offset in the log
 * @param length how many bytes it had
 * @param movedTo the file that now holds those bytes
 */
record TornTail(long sequence, long offset, long length, Path movedTo) {
  static final String ACTION = "audit.torn-tail";

  /** Copies the tail of {@code channel} into a new {@code .torn} file beside {@code log}. */
  static TornTail moveAside(FileChannel channel, Path log, long sequence, long offset, long length)
      throws IOException {
    Path folder = log.getParent();
    Path temporary = folder.resolve(log.getFileName() + "." + offset + ".torn.tmp");
    try (FileChannel out =
        FileChannel.open(
            temporary,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      long copied = 0;
      while (copied < length) {
        long n = channel.transferTo(offset + copied, length - copied, out);
        if (n <= 0) {
          throw new IOException("the log shrank while its torn tail was copied");
        }
        copied += n;
      }
      out.force(true);
    }
    for (int attempt = 1; ; attempt++) {
      String suffix = attempt == 1 ? "" : "." + attempt;
      Path target = folder.resolve(log.getFileName() + "." + offset + suffix + ".torn");
      if (Files.exists(target) && Files.mismatch(target, temporary) == -1L) {
        Files.delete(temporary);
        return new TornTail(sequence, offset, length, target);
      }
      if (!Files.exists(target)) {
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        AuditFile.syncFolder(folder);
        return new TornTail(sequence, offset, length, target);
      }
    }
  }

  /** Returns the event that records, in the log itself, that this tail was moved aside. */
  AuditEvent event(Path log) {
    Map<String, String> details = new TreeMap<>();
    details.put("offset", Long.toString(offset));
    details.put("bytes", Long.toString(length));
    details.put("movedTo", movedTo.toString());
    details.put("lastIntactSequence", Long.toString(sequence - 1));
    return new AuditEvent("system", "local", ACTION, log.toString(), AuditOutcome.FAILURE, details);
  }

  /** Describes the torn record for an operator, as {@code verify()} reports it. */
  String describe() {
    return "record "
        + sequence
        + " torn: "
        + length
        + " bytes at byte offset "
        + offset
        + " of the log had no line end (an append cut short by a crash, never acknowledged);"
        + " they were moved to "
        + movedTo
        + " and appending continued after record "
        + (sequence - 1)
        + ". Keep that file with the log as evidence";
  }
}
