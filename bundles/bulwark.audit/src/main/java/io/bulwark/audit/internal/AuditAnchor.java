package io.bulwark.audit.internal;

import io.bulwark.lib.files.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;

/**
 * The audit log's anchor: a small file next to the log that names the last record written (its
 * sequence number and hash) under an HMAC with the audit key. The hash chain alone cannot tell that
 * whole records were cut from the end of the log; comparing the log with its anchor can. The anchor
 * is rewritten in place after every append (one short write, not synced: after a crash it may trail
 * the log, never lead it).
 */
final class AuditAnchor {
  static final String SUFFIX = ".anchor";
  private static final String DOMAIN = "bulwark-audit-anchor\n";
  private static final Pattern FORMAT =
      Pattern.compile(
          "\\{\"sequence\":(\\d{1,19}),\"hash\":\"([0-9a-f]{64})\",\"hmac\":\"([0-9a-f]{64})\"\\}"
              + "\\s*");
  private static final int MAX_BYTES = 512;

  /** What the anchor says, once its HMAC checked. */
  record Mark(long sequence, String hash) {}

  /** The anchor file cannot be trusted: unreadable, malformed or with a wrong HMAC. */
  static final class UntrustedAnchorException extends Exception {
    private static final long serialVersionUID = 1L;

    UntrustedAnchorException(String message) {
      super(message);
    }
  }

  private final Path file;

  AuditAnchor(Path logFile) {
    this.file = logFile.resolveSibling(logFile.getFileName() + SUFFIX);
  }

  Path file() {
    return file;
  }

  /**
   * Returns the mark the anchor holds, or null when there is no anchor file.
   *
   * @throws UntrustedAnchorException if it is there but unreadable, malformed or not sealed with
   *     {@code mac}'s key
   */
  Mark read(Mac mac) throws UntrustedAnchorException {
    byte[] bytes;
    try {
      if (Files.size(file) > MAX_BYTES) {
        throw new UntrustedAnchorException(
            "the anchor " + file + " is larger than an anchor can be");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new UntrustedAnchorException("the anchor " + file + " cannot be read: " + e);
    }
    Matcher m = FORMAT.matcher(new String(bytes, StandardCharsets.US_ASCII));
    if (!m.matches()) {
      throw new UntrustedAnchorException("the anchor " + file + " is not in the anchor format");
    }
    long sequence;
    try {
      sequence = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new UntrustedAnchorException("the anchor " + file + " holds a sequence out of range");
    }
    String hash = m.group(2);
    byte[] expected =
        FipsCrypto.hmacHex(mac, signed(sequence, hash)).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(expected, m.group(3).getBytes(StandardCharsets.US_ASCII))) {
      throw new UntrustedAnchorException(
          "the anchor "
              + file
              + " does not carry the audit key's HMAC: it was altered or replaced");
    }
    return new Mark(sequence, hash);
  }

  /** Points the anchor at the record {@code sequence} with hash {@code hash}. */
  void write(long sequence, String hash, Mac mac) throws IOException {
    String line =
        "{\"sequence\":"
            + sequence
            + ",\"hash\":\""
            + hash
            + "\",\"hmac\":\""
            + FipsCrypto.hmacHex(mac, signed(sequence, hash))
            + "\"}\n";
    // Rewritten after every record: ordered, not synced. After a crash the anchor is whole, and at
    // worst points at an earlier record, which the log still holds.
    AtomicFile.writeOrdered(file, line.getBytes(StandardCharsets.US_ASCII));
  }

  private static String signed(long sequence, String hash) {
    return DOMAIN + sequence + "\n" + hash;
  }
}
