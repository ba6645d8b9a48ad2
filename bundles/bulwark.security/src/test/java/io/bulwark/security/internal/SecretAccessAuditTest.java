package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every read, write and removal of a secret is audited with its name and caller, never its value;
 * accesses before the audit log came are recorded when it comes; an audit log that reads its own
 * key while appending does not recurse; and a write the audit log cannot record is refused.
 */
class SecretAccessAuditTest {
  private static final byte[] VALUE = "Rack7-BMC-admin-pass-8c1f".getBytes(StandardCharsets.UTF_8);

  @TempDir Path folder;
  private final RecordingAuditLog audit = new RecordingAuditLog(Clock.systemUTC());

  private EncryptedSecretStore store() {
    return new EncryptedSecretStore(Fips.module(), null, new SecretStoreOptions(folder, true));
  }

  @Test
  void readsWritesAndRemovalsAreRecordedWithTheirCaller() {
    EncryptedSecretStore store = store();
    store.attachAuditLog(audit);

    store.put("bmc.rack7", VALUE);
    store.get("bmc.rack7");
    store.get("bmc.absent");
    store.remove("bmc.rack7");

    List<AuditEvent> events = audit.events();
    assertThat(events)
        .extracting(AuditEvent::action, AuditEvent::target, AuditEvent::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("secret.write", "bmc.rack7", AuditOutcome.SUCCESS),
            org.assertj.core.groups.Tuple.tuple("secret.read", "bmc.rack7", AuditOutcome.SUCCESS),
            org.assertj.core.groups.Tuple.tuple("secret.read", "bmc.absent", AuditOutcome.SUCCESS),
            org.assertj.core.groups.Tuple.tuple(
                "secret.remove", "bmc.rack7", AuditOutcome.SUCCESS));
    assertThat(events.get(1).details())
        .containsEntry("found", "true")
        .containsEntry("caller", "SecretAccessAuditTest");
    assertThat(events.get(2).details()).containsEntry("found", "false");
    assertThat(events.toString()).doesNotContain("Rack7-BMC-admin-pass");
  }

  @Test
  void accessesBeforeTheAuditLogCameAreRecordedWhenItComes() {
    EncryptedSecretStore store = store();
    store.put("tls.keystore-password", VALUE);
    store.get("tls.keystore-password");
    assertThat(audit.events()).isEmpty();

    store.attachAuditLog(audit);

    assertThat(audit.events())
        .extracting(AuditEvent::action)
        .containsExactly("secret.write", "secret.read");
  }

  @Test
  void theAuditLogReadingItsOwnKeyWhileAppendingDoesNotRecurse() {
    EncryptedSecretStore store = store();
    store.put("audit.hmac", VALUE);
    RecordingAuditLog keyReading =
        new RecordingAuditLog(Clock.systemUTC()) {
          @Override
          public synchronized AuditRecord append(AuditEvent event) {
            store.get("audit.hmac");
            return super.append(event);
          }
        };
    store.attachAuditLog(keyReading);

    store.get("bmc.rack7");

    assertThat(keyReading.events())
        .extracting(AuditEvent::action, AuditEvent::target)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("secret.write", "audit.hmac"),
            org.assertj.core.groups.Tuple.tuple("secret.read", "bmc.rack7"));
  }

  @Test
  void aWriteTheAuditLogCannotRecordIsRefusedAndNothingIsStored() {
    EncryptedSecretStore store = store();
    store.attachAuditLog(audit);
    audit.unavailable(true);

    assertThatThrownBy(() -> store.put("bmc.rack7", VALUE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("secret 'bmc.rack7' is refused because the audit log cannot record");
    audit.unavailable(false);
    assertThat(store.get("bmc.rack7")).isEmpty();
  }
}
