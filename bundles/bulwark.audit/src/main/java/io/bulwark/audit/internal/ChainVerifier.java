package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditVerification;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;

/**
 * Checks an audit log line by line: each line must be a record in canonical form whose hash is the
 * SHA-256 of its body, whose sequence number is one more than the record before it (record 1
 * first), whose previous hash is that record's hash, and, when the appliance's audit key is given,
 * whose HMAC matches. Reports the first break as "record N altered / missing / out of order", and
 * reads on to the end to find the last record and build the search index. Used when the log opens,
 * by {@code verify()} and by the offline verifier (without the key).
 */
final class ChainVerifier {
  private final Mac hmac;
  private final MessageDigest digest = FipsCrypto.sha256();

  /** Checks HMACs with {@code hmac}, or not at all when it is null. */
  ChainVerifier(Mac hmac) {
    this.hmac = hmac;
  }

  ChainReport check(FileChannel channel, long end) throws IOException {
    LogLines lines = new LogLines(channel, 0, end);
    SequenceIndex index = new SequenceIndex();
    long expected = 1;
    String previous = StoredRecord.GENESIS;
    String problem = null;
    long firstBad = 0;
    long awaited = 0;
    long standingIn = 0;
    boolean awaitedFound = false;
    long count = 0;
    long lastSequence = 0;
    String lastHash = StoredRecord.GENESIS;
    long linesEnd = 0;
    for (LogLines.Line line = lines.next(); line != null; line = lines.next()) {
      count++;
      linesEnd = line.end();
      StoredRecord r;
      try {
        if (line.oversized()) {
          throw new MalformedRecordException(
              "a line of " + line.length() + " bytes is too long to be a record");
        }
        r = StoredRecord.parse(line.bytes(), line.length());
      } catch (MalformedRecordException e) {
        if (problem == null) {
          firstBad = expected;
          problem =
              "record "
                  + expected
                  + " altered: not a record ("
                  + e.getMessage()
                  + ") at byte offset "
                  + line.offset();
        }
        continue;
      }
      lastSequence = r.sequence();
      lastHash = r.hash();
      index.add(r.sequence(), line.offset());
      if (awaited != 0 && r.sequence() == awaited) {
        awaitedFound = true;
      }
      if (problem != null) {
        continue;
      }
      String body = r.body();
      String claims = r.sequence() == expected ? "" : " (it claims sequence " + r.sequence() + ")";
      if (!canonical(r, line)) {
        firstBad = expected;
        problem = "record " + expected + " altered: not in the stored canonical form" + claims;
      } else if (!FipsCrypto.sha256Hex(digest, body).equals(r.hash())) {
        firstBad = expected;
        problem = "record " + expected + " altered: hash mismatch" + claims;
      } else if (r.sequence() > expected) {
        firstBad = expected;
        awaited = expected;
        standingIn = r.sequence();
        problem = "";
      } else if (r.sequence() < expected) {
        firstBad = r.sequence();
        problem =
            "record " + r.sequence() + " out of order: it comes after record " + (expected - 1);
      } else if (!r.previousHash().equals(previous)) {
        firstBad = expected;
        problem =
            "record "
                + expected
                + " altered: its previous-record hash does not match "
                + (expected == 1 ? "the start of the log" : "record " + (expected - 1))
                + " (the chain was rewritten from here)";
      } else if (hmac != null && !FipsCrypto.hmacHex(hmac, body).equals(r.hmac())) {
        firstBad = expected;
        problem =
            "record "
                + expected
                + " altered: HMAC mismatch (the record was rewritten without the appliance's"
                + " audit key)";
      } else {
        expected++;
        previous = r.hash();
      }
    }
    if (awaited != 0) {
      problem = gap(awaited, standingIn, awaitedFound);
    }
    AuditVerification verdict =
        problem == null
            ? AuditVerification.intact(count)
            : new AuditVerification(false, count, firstBad, problem);
    return new ChainReport(verdict, lastSequence, lastHash, linesEnd, lines.tailLength(), index);
  }

  private static String gap(long awaited, long standingIn, boolean foundLater) {
    if (foundLater) {
      return "record " + awaited + " out of order: record " + standingIn + " stands in its place";
    }
    if (awaited == 1) {
      return "record 1 missing: the log starts at record " + standingIn;
    }
    return "record "
        + awaited
        + " missing: sequence jumps from "
        + (awaited - 1)
        + " to "
        + standingIn;
  }

  private static boolean canonical(StoredRecord r, LogLines.Line line) {
    byte[] expected = r.line().getBytes(StandardCharsets.UTF_8);
    return Arrays.equals(expected, 0, expected.length, line.bytes(), 0, line.length());
  }
}
