package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditExport;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditQuery;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.audit.AuditVerification;
import io.bulwark.api.audit.ExportFormat;
import io.bulwark.api.audit.ExportSignature;
import io.bulwark.api.security.SecretStore;
import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemStatus;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.Mac;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The appliance's audit log: one JSON Lines file in which every record carries the hash of the one
 * before it and an HMAC with the audit key from the secret store, each synced to disk before {@link
 * #append} returns. When anything stands in the way (quota, disk, permissions, key) append throws
 * {@link AuditUnavailableException} and the caller must not go ahead: Bulwark fails secure. The log
 * is checked end to end when it opens; a torn last record is moved aside and reported. Also exports
 * the log, signed, for auditors.
 */
@Component(
    configurationPid = "io.bulwark.audit",
    configurationPolicy = ConfigurationPolicy.REQUIRE,
    service = {AuditLog.class, AuditExport.class, SubsystemCheck.class})
@Designate(ocd = AuditConfig.class)
public final class FileAuditLog implements AuditLog, AuditExport, SubsystemCheck, AutoCloseable {
  static final int MAX_RECORD_BYTES = 64 * 1024;
  static final String TORN_TAIL_ACTION = "audit.torn-tail";
  static final String TRUNCATED_ACTION = "audit.truncated";
  static final String ANCHOR_ACTION = "audit.anchor-untrusted";
  private static final System.Logger LOG = System.getLogger(FileAuditLog.class.getName());

  private final AuditOptions options;
  private final AuditKeys keys;
  private final Clock clock;
  private final Object appending = new Object();
  private final AuditAnchor anchor;
  private volatile AuditFile file;
  private volatile String truncation;
  private volatile long truncatedAt;
  private volatile String unavailable;
  private final AuditHealth health;

  @Activate
  public FileAuditLog(@Reference SecretStore secrets, AuditConfig config) {
    this(AuditOptions.from(config), secrets, Clock.systemUTC());
  }

  FileAuditLog(AuditOptions options, SecretStore secrets, Clock clock) {
    this.options = options;
    this.keys = new AuditKeys(secrets);
    this.clock = clock;
    this.anchor = new AuditAnchor(options.logFile());
    this.health = new AuditHealth(options, clock);
    try {
      AuditFile log = opened();
      // Load or make the HMAC key now, before anyone can append: storing a new key is audited by
      // the secret store, which must not happen in the middle of an append.
      keys.hmacForAppend(log.size() == 0, log.path().toString());
    } catch (AuditUnavailableException e) {
      unavailable = e.getMessage();
      LOG.log(
          Level.ERROR,
          "Audit log unavailable, every audited action will be refused until this is fixed: {0}",
          e.getMessage());
    }
  }

  @Override
  public AuditRecord append(AuditEvent event) {
    try {
      AuditRecord record = appendRecord(event);
      unavailable = null;
      return record;
    } catch (AuditUnavailableException e) {
      unavailable = e.getMessage();
      throw e;
    }
  }

  @Override
  public SubsystemStatus status() {
    return health.status(file, unavailable, truncation);
  }

  private AuditRecord appendRecord(AuditEvent event) {
    Objects.requireNonNull(event, "event");
    synchronized (appending) {
      AuditFile log = opened();
      Mac mac = keys.hmacForAppend(log.size() == 0, log.path().toString());
      StoredRecord unsealed =
          StoredRecord.unsealed(
              log.lastSequence() + 1,
              clock.instant().truncatedTo(ChronoUnit.MICROS),
              event,
              log.lastHash());
      String body = unsealed.body();
      if (body.length() > MAX_RECORD_BYTES) {
        throw new IllegalArgumentException(
            "audit event "
                + event.action()
                + " by "
                + event.actor()
                + " is too large ("
                + body.length()
                + " characters): keep its details under "
                + AuditOptions.size(MAX_RECORD_BYTES));
      }
      StoredRecord sealed =
          unsealed.sealed(
              FipsCrypto.sha256Hex(FipsCrypto.sha256(), body), FipsCrypto.hmacHex(mac, body));
      log.write(sealed, RecoveryRecords.admits(event));
      moveAnchor(log, mac);
      return sealed.toAuditRecord();
    }
  }

  @Override
  public List<AuditRecord> search(AuditQuery query) {
    AuditFile log = opened();
    long end = log.size();
    List<AuditRecord> found = new ArrayList<>();
    try {
      LogLines lines =
          new LogLines(log.channel(), log.index().startAfter(query.afterSequence()), end);
      for (LogLines.Line line = lines.next();
          line != null && found.size() < query.limit();
          line = lines.next()) {
        if (line.oversized()) {
          continue;
        }
        try {
          StoredRecord r = StoredRecord.parse(line.bytes(), line.length());
          AuditRecord record = r.toAuditRecord();
          if (r.sequence() > query.afterSequence() && query.matches(record)) {
            found.add(record);
          }
        } catch (MalformedRecordException e) {
          LOG.log(
              Level.DEBUG, "search skips the unreadable line at byte offset {0}", line.offset());
        }
      }
    } catch (IOException e) {
      throw unreadable(log, e);
    }
    return found;
  }

  @Override
  public AuditVerification verify() {
    AuditFile log;
    try {
      log = opened();
    } catch (AuditUnavailableException e) {
      return new AuditVerification(false, 0, 0, "the audit log cannot be read: " + e.getMessage());
    }
    long end = log.size();
    Mac mac = null;
    String keyProblem = null;
    if (end > 0) {
      try {
        mac = checkingKey(log);
      } catch (AuditUnavailableException e) {
        keyProblem = e.getMessage();
      }
    }
    AuditVerification verdict;
    try {
      verdict = new ChainVerifier(mac).check(log.channel(), end).verdict();
    } catch (IOException e) {
      return new AuditVerification(false, 0, 0, unreadable(log, e).getMessage());
    }
    if (!verdict.intact()) {
      return verdict;
    }
    TornTail torn = log.torn();
    if (torn != null) {
      return new AuditVerification(
          false, verdict.recordsChecked(), torn.sequence(), torn.describe());
    }
    if (truncation != null) {
      return new AuditVerification(false, verdict.recordsChecked(), truncatedAt, truncation);
    }
    String cut;
    synchronized (appending) {
      cut = cutNow(log, mac);
    }
    if (cut != null) {
      return new AuditVerification(false, verdict.recordsChecked(), log.lastSequence() + 1, cut);
    }
    if (keyProblem != null) {
      return new AuditVerification(
          false,
          verdict.recordsChecked(),
          0,
          "the hash chain of "
              + verdict.recordsChecked()
              + " records is intact, but their HMACs were not checked: "
              + keyProblem);
    }
    return verdict;
  }

  @Override
  public ExportSignature export(ExportFormat format, OutputStream out) {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(out, "out");
    AuditFile log = opened();
    try {
      return SignedExport.write(format, log.channel(), log.size(), signingKeys(), out);
    } catch (IOException e) {
      throw unreadable(log, e);
    }
  }

  @Override
  public Path exportTo(ExportFormat format, Path folder) {
    return ExportFiles.write(this, format, folder, clock.instant());
  }

  @Override
  public String publicKeyPem() {
    return PublicKeyPem.encode(signingKeys().getPublic());
  }

  /**
   * Returns the export signing keys, fetched under the append lock like every audit key: reading or
   * storing a key goes through the secret store, which records the access by appending here, so the
   * locks must always be taken in one order (append lock, then the keys, then the store).
   */
  private java.security.KeyPair signingKeys() {
    synchronized (appending) {
      return keys.signingKeys();
    }
  }

  private Mac checkingKey(AuditFile log) {
    synchronized (appending) {
      return keys.hmacForCheck(log.path().toString());
    }
  }

  @Deactivate
  @Override
  public void close() throws IOException {
    synchronized (appending) {
      if (file != null) {
        file.close();
      }
    }
  }

  private AuditFile opened() {
    AuditFile current = file;
    if (current != null) {
      return current;
    }
    synchronized (appending) {
      if (file == null) {
        AuditFile log = AuditFile.open(options, existingKey());
        file = log;
        LOG.log(
            Level.INFO,
            "Audit log open at {0}: {1} records, {2} of {3}",
            log.path(),
            log.lastSequence(),
            AuditOptions.size(log.size()),
            AuditOptions.size(options.maxBytes()));
        List<AuditEvent> anchorProblems = checkAnchor(log);
        if (log.torn() != null) {
          recordTornTail(log.torn());
        }
        anchorProblems.forEach(this::recordOpeningProblem);
      }
      return file;
    }
  }

  private Mac existingKey() {
    try {
      if (Files.size(options.logFile()) == 0) {
        return null;
      }
    } catch (IOException e) {
      return null;
    }
    try {
      return keys.hmacForCheck(options.logFile().toString());
    } catch (AuditUnavailableException e) {
      LOG.log(Level.WARNING, "Audit log opens without checking HMACs: {0}", e.getMessage());
      return null;
    }
  }

  private void recordTornTail(TornTail torn) {
    Map<String, String> details = new TreeMap<>();
    details.put("offset", Long.toString(torn.offset()));
    details.put("bytes", Long.toString(torn.length()));
    details.put("movedTo", torn.movedTo().toString());
    details.put("lastIntactSequence", Long.toString(torn.sequence() - 1));
    try {
      append(
          new AuditEvent(
              "system",
              "local",
              TORN_TAIL_ACTION,
              options.logFile().toString(),
              AuditOutcome.FAILURE,
              details));
    } catch (AuditUnavailableException e) {
      LOG.log(Level.ERROR, "Cannot record the torn audit tail in the log: {0}", e.getMessage());
    }
  }

  private void moveAnchor(AuditFile log, Mac mac) {
    try {
      anchor.write(log.lastSequence(), log.lastHash(), mac);
    } catch (IOException e) {
      LOG.log(
          Level.WARNING,
          "Audit record {0} is durable, but the anchor {1} could not be moved to it ({2}): cutting"
              + " records from the end of the log would go unnoticed until it can. Check the"
              + " audit folder.",
          log.lastSequence(),
          anchor.file(),
          e.toString());
    }
  }

  /**
   * Compares the opened log with its anchor and returns the events to record: records cut from the
   * end, or an anchor that cannot be trusted. A missing anchor is made for a log that has none.
   */
  private List<AuditEvent> checkAnchor(AuditFile log) {
    Mac mac;
    try {
      mac = keys.hmacForCheck(log.path().toString());
    } catch (AuditUnavailableException e) {
      if (log.size() > 0) {
        LOG.log(Level.WARNING, "Audit anchor not checked: {0}", e.getMessage());
      }
      return List.of();
    }
    List<AuditEvent> problems = new ArrayList<>();
    AuditAnchor.Mark mark;
    try {
      mark = anchor.read(mac);
    } catch (AuditAnchor.UntrustedAnchorException e) {
      problems.add(openingEvent(ANCHOR_ACTION, Map.of("problem", e.getMessage())));
      return problems;
    }
    if (mark == null) {
      if (log.lastSequence() > 0) {
        // A log with records and no anchor: the anchor was deleted (perhaps to hide records cut
        // from the end) or the log comes from before anchors. Either way it is recorded.
        problems.add(
            openingEvent(
                ANCHOR_ACTION,
                Map.of(
                    "problem",
                    "the anchor "
                        + anchor.file()
                        + " is missing although the log holds "
                        + log.lastSequence()
                        + " records: records cut from its end before now cannot be ruled out")));
        moveAnchor(log, mac);
      }
      return problems;
    }
    long reported = log.torn() != null ? log.torn().sequence() : log.lastSequence();
    if (mark.sequence() > reported) {
      truncation = cutDescription(mark.sequence(), log.lastSequence());
      truncatedAt = log.lastSequence() + 1;
      LOG.log(Level.ERROR, "AUDIT LOG TAMPERING: {0}", truncation);
      Map<String, String> details = new TreeMap<>();
      details.put("anchorSequence", Long.toString(mark.sequence()));
      details.put("lastSequence", Long.toString(log.lastSequence()));
      details.put("problem", truncation);
      problems.add(openingEvent(TRUNCATED_ACTION, details));
    } else if (mark.sequence() == log.lastSequence() && !mark.hash().equals(log.lastHash())) {
      problems.add(
          openingEvent(
              ANCHOR_ACTION,
              Map.of(
                  "problem",
                  "the anchor names record "
                      + mark.sequence()
                      + " with another hash than the log's last record: it was replaced")));
    }
    return problems;
  }

  /** Returns what was cut from the end of the log now, or null. */
  private String cutNow(AuditFile log, Mac mac) {
    if (mac == null) {
      return null;
    }
    try {
      AuditAnchor.Mark mark = anchor.read(mac);
      if (mark != null && mark.sequence() > log.lastSequence()) {
        return cutDescription(mark.sequence(), log.lastSequence());
      }
      return null;
    } catch (AuditAnchor.UntrustedAnchorException e) {
      return e.getMessage();
    }
  }

  private static String cutDescription(long anchored, long last) {
    return "records "
        + (last + 1)
        + " to "
        + anchored
        + " were cut from the end of the audit log: its anchor names record "
        + anchored
        + " but the log ends at record "
        + last
        + ". Restore the log from an export or a backup and investigate who had access.";
  }

  private AuditEvent openingEvent(String action, Map<String, String> details) {
    return new AuditEvent(
        "system", "local", action, options.logFile().toString(), AuditOutcome.FAILURE, details);
  }

  private void recordOpeningProblem(AuditEvent event) {
    try {
      append(event);
    } catch (AuditUnavailableException e) {
      LOG.log(
          Level.ERROR, "Cannot record {0} in the audit log: {1}", event.action(), e.getMessage());
    }
  }

  private static AuditUnavailableException unreadable(AuditFile log, IOException e) {
    return new AuditUnavailableException(
        "cannot read the audit log " + log.path() + " (" + e + "): check the disk and the file", e);
  }
}
