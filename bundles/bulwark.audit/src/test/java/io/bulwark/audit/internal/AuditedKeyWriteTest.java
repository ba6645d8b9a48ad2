package io.bulwark.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditVerification;
import io.bulwark.api.security.SecretStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The secret store audits every write, the audit log's own new key included, by appending to the
 * audit log. A new log's key is therefore made when the log opens, before anyone appends, and is in
 * use before it is stored: the record of its own storing is sealed with it, and the chain verifies.
 */
class AuditedKeyWriteTest {
  @TempDir Path folder;

  /** A secret store that records each write in the audit log, as the security bundle's does. */
  private static final class AuditingStore implements SecretStore {
    final InMemorySecretStore secrets = new InMemorySecretStore();
    final AtomicReference<FileAuditLog> log = new AtomicReference<>();

    @Override
    public void put(String name, byte[] value) {
      FileAuditLog audit = log.get();
      if (audit != null) {
        audit.append(
            new AuditEvent(
                "system", "local", "secret.write", name, AuditOutcome.SUCCESS, Map.of()));
      }
      secrets.put(name, value);
    }

    @Override
    public Optional<byte[]> get(String name) {
      return secrets.get(name);
    }

    @Override
    public void remove(String name) {
      secrets.remove(name);
    }

    @Override
    public boolean sealedToTpm() {
      return false;
    }
  }

  @Test
  void theKeyOfANewLogIsMadeWhenItOpensAndTheChainVerifies() throws Exception {
    AuditingStore store = new AuditingStore();
    try (FileAuditLog log =
        new FileAuditLog(new AuditOptions(folder, 1 << 20), store, Clock.systemUTC())) {
      assertThat(store.secrets.get(AuditKeys.HMAC_NAME)).isPresent();
      store.log.set(log);
      log.append(AuditFixture.event(1));
      log.exportTo(io.bulwark.api.audit.ExportFormat.JSONL, folder.resolve("exports"));
      assertThat(log.verify().intact()).isTrue();
    }
    try (FileAuditLog reopened =
        new FileAuditLog(new AuditOptions(folder, 1 << 20), store, Clock.systemUTC())) {
      AuditVerification verdict = reopened.verify();
      assertThat(verdict.intact()).as(verdict.problem()).isTrue();
    }
  }
}
