package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditExport;
import io.bulwark.api.audit.AuditLog;
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
import java.util.Objects;
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
  static final String TORN_TAIL_ACTION = TornTail.ACTION;
  static final String TRUNCATED_ACTION = AnchorWatch.TRUNCATED_ACTION;
  static final String ANCHOR_ACTION = AnchorWatch.ANCHOR_ACTION;
  private static final System.Logger LOG = System.getLogger(FileAuditLog.class.getName());

  private final AuditOptions options;
  private final AuditKeys keys;
  private final Clock clock;
  private final Object appending = new Object();
  private final AnchorWatch anchor;
  private volatile AuditFile file;
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
    this.anchor = new AnchorWatch(options.logFile());
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
    return health.status(file, unavailable, anchor.truncation());
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
      anchor.move(log, mac);
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
    if (anchor.truncation() != null) {
      return new AuditVerification(
          false, verdict.recordsChecked(), anchor.truncatedAt(), anchor.truncation());
    }
    String cut;
    synchronized (appending) {
      cut = anchor.cutNow(log, mac);
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
  public byte[] sign(byte[] document) {
    Objects.requireNonNull(document, "document");
    java.security.Signature signature = FipsCrypto.signature();
    try {
      signature.initSign(signingKeys().getPrivate(), FipsCrypto.drbg());
      signature.update(document);
      return signature.sign();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign the document: " + e.getMessage(), e);
    }
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
          recordOpeningProblem(log.torn().event(options.logFile()));
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
    return anchor.opening(log, mac);
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
