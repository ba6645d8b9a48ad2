package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditRecord;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * One line of the audit log as stored: the record's fields, the hash of the record before it, its
 * own hash (SHA-256 over its canonical body, which includes the previous hash) and its HMAC
 * (HMAC-SHA-256 over the same body with the appliance's audit key). The body is the canonical JSON
 * object {@code {"seq","at","actor","source","action","target","outcome","details","prev"}}; the
 * line adds {@code "hash"} and {@code "hmac"} to it.
 */
record StoredRecord(
    long sequence,
    Instant at,
    String actor,
    String source,
    String action,
    String target,
    AuditOutcome outcome,
    SortedMap<String, String> details,
    String previousHash,
    String hash,
    String hmac) {

  /** The previous hash of record 1. */
  static final String GENESIS = "0".repeat(64);

  private static final Pattern HEX_256 = Pattern.compile("[0-9a-f]{64}");

  StoredRecord {
    details = Collections.unmodifiableSortedMap(new TreeMap<>(details));
  }

  /** Returns the record of an event about to be appended, not yet sealed (no hash, no HMAC). */
  static StoredRecord unsealed(long sequence, Instant at, AuditEvent event, String previousHash) {
    return new StoredRecord(
        sequence,
        at,
        event.actor(),
        event.source(),
        event.action(),
        event.target(),
        event.outcome(),
        new TreeMap<>(event.details()),
        previousHash,
        "",
        "");
  }

  /** Returns this record with its hash and HMAC. */
  StoredRecord sealed(String hash, String hmac) {
    return new StoredRecord(
        sequence, at, actor, source, action, target, outcome, details, previousHash, hash, hmac);
  }

  /** Returns the canonical body: what the hash and the HMAC are computed over. */
  String body() {
    return bodyWriter().close();
  }

  /** Returns the canonical line, without its line end. */
  String line() {
    return bodyWriter().string("hash", hash).string("hmac", hmac).close();
  }

  AuditRecord toAuditRecord() {
    return new AuditRecord(
        sequence, at, new AuditEvent(actor, source, action, target, outcome, details));
  }

  /**
   * Reads a line of the log (without its line end).
   *
   * @throws MalformedRecordException if it is not a record in the stored form
   */
  static StoredRecord parse(byte[] bytes, int length) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes, 0, length))
              .toString();
    } catch (CharacterCodingException e) {
      throw new MalformedRecordException("not UTF-8 text");
    }
    try (JsonCursor in = new JsonCursor(text)) {
      return read(in);
    }
  }

  private static StoredRecord read(JsonCursor in) {
    in.start();
    in.field("seq");
    long sequence = in.number();
    if (sequence < 1) {
      throw new MalformedRecordException("sequence number " + sequence + " is below 1");
    }
    in.field("at");
    Instant at = instant(in.string());
    in.field("actor");
    String actor = in.string();
    in.field("source");
    String source = in.string();
    in.field("action");
    String action = in.string();
    in.field("target");
    String target = in.string();
    in.field("outcome");
    AuditOutcome outcome = outcome(in.string());
    in.field("details");
    TreeMap<String, String> details = in.strings();
    in.field("prev");
    String prev = hex(in.string(), "prev");
    in.field("hash");
    String hash = hex(in.string(), "hash");
    in.field("hmac");
    String hmac = hex(in.string(), "hmac");
    in.end();
    return new StoredRecord(
        sequence, at, actor, source, action, target, outcome, details, prev, hash, hmac);
  }

  private CanonicalJson bodyWriter() {
    return new CanonicalJson()
        .number("seq", sequence)
        .string("at", at.toString())
        .string("actor", actor)
        .string("source", source)
        .string("action", action)
        .string("target", target)
        .string("outcome", outcome.name())
        .strings("details", details)
        .string("prev", previousHash);
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeException e) {
      throw new MalformedRecordException("time '" + text + "' is not an ISO-8601 UTC instant");
    }
  }

  private static AuditOutcome outcome(String text) {
    try {
      return AuditOutcome.valueOf(text);
    } catch (IllegalArgumentException e) {
      throw new MalformedRecordException("unknown outcome '" + text + "'");
    }
  }

  private static String hex(String text, String field) {
    if (!HEX_256.matcher(text).matches()) {
      throw new MalformedRecordException(field + " is not 64 lower-case hex digits");
    }
    return text;
  }
}
