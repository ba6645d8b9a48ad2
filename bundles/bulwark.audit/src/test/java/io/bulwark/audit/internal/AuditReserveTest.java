package io.bulwark.audit.internal;

import static io.bulwark.audit.internal.AuditFixture.logFile;
import static io.bulwark.audit.internal.AuditFixture.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.audit.AuditVerification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The part of the quota kept back takes only what docs/security.md names: successful logins,
 * logouts (and sessions that expire), unlocks, pulling the remediation kill switch, and the audit
 * log's own records (its integrity records, exports, reads of its own keys). Given a log filled by
 * large refused requests, as an anonymous flood fills it, when the routine records an operator
 * makes arrive, then they are refused even where a small one would still fit in the routine part.
 */
class AuditReserveTest {
  private static final long QUOTA = 256 * 1024;

  @TempDir Path folder;
  private final InMemorySecretStore secrets = new InMemorySecretStore();

  @Test
  void aFullLogTakesOnlyWhatTheReserveIsForAndNothingElse() throws Exception {
    try (FileAuditLog log = open(folder, secrets, QUOTA)) {
      long routineLimit = new AuditOptions(folder, QUOTA).routineLimit();
      int n = 0;
      for (long size = 0; size < routineLimit - 3000; size = Files.size(logFile(folder))) {
        log.append(refused(n++, size < routineLimit - 12_000 ? 4000 : 200));
      }
      // the flood's next record, 15 KB of client text, no longer fits the routine part
      assertThatThrownBy(() -> log.append(refused(0, 15_500)))
          .isInstanceOf(AuditUnavailableException.class);
      long full = Files.size(logFile(folder));
      assertThat(routineLimit - full).as("room left in the routine part").isGreaterThan(2000);

      for (AuditEvent routine : routineRecords()) {
        assertThatThrownBy(() -> log.append(routine))
            .as("%s (%s) with the log full", routine.action(), routine.outcome())
            .isInstanceOf(AuditUnavailableException.class);
      }
      assertThat(Files.size(logFile(folder))).isEqualTo(full);

      for (AuditEvent recovery : recoveryRecords()) {
        assertThat(log.append(recovery).event())
            .as("%s with the log full", recovery.action())
            .isEqualTo(recovery);
      }
      assertThat(Files.size(logFile(folder))).isGreaterThan(full).isLessThanOrEqualTo(QUOTA);
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(n + recoveryRecords().size()));
    }
  }

  @Test
  void theReserveAdmitsExactlyTheRecordsTheDocumentNames() {
    assertThat(recoveryRecords()).allMatch(RecoveryRecords::admits);
    assertThat(routineRecords()).noneMatch(RecoveryRecords::admits);
  }

  /** Records the reserve is kept for. */
  private static List<AuditEvent> recoveryRecords() {
    return List.of(
        event("admin", "session.login", "admin", AuditOutcome.SUCCESS, Map.of()),
        event("admin", "user.unlock", "carol", AuditOutcome.SUCCESS, Map.of("wasLocked", "true")),
        event("op", "remediation.kill-switch", "", AuditOutcome.SUCCESS, Map.of("on", "true")),
        event("admin", "audit.export", "jsonl", AuditOutcome.SUCCESS, Map.of()),
        event("system", "secret.read", AuditKeys.SIGNING_NAME, AuditOutcome.SUCCESS, Map.of()),
        event("admin", "session.expired", "admin", AuditOutcome.SUCCESS, Map.of()),
        event("admin", "session.logout", "admin", AuditOutcome.SUCCESS, Map.of()));
  }

  /** Records an operator or anyone else causes that the reserve is not for. */
  private static List<AuditEvent> routineRecords() {
    return List.of(
        event("op", "finding.comment", "gpu-a01", AuditOutcome.SUCCESS, Map.of("length", "12")),
        event("admin", "token.create", "ci", AuditOutcome.SUCCESS, Map.of("role", "AUDITOR")),
        event("admin", "user.create", "dave", AuditOutcome.SUCCESS, Map.of("role", "OPERATOR")),
        event("admin", "password.change", "admin", AuditOutcome.SUCCESS, Map.of()),
        event("admin", "session.ended", "admin", AuditOutcome.SUCCESS, Map.of()),
        event("admin", "setting.changed", "io.bulwark.web", AuditOutcome.SUCCESS, Map.of()),
        event("system", "settings.in-effect", "appliance", AuditOutcome.SUCCESS, Map.of()),
        event("system", "secret.read", "bmc.password", AuditOutcome.SUCCESS, Map.of()),
        event("system", "secret.write", "agent.authority", AuditOutcome.SUCCESS, Map.of()),
        event("admin", "account.bootstrap", "admin", AuditOutcome.SUCCESS, Map.of()),
        event("op", "remediation.kill-switch", "", AuditOutcome.SUCCESS, Map.of("on", "false")),
        event("op", "remediation.kill-switch", "", AuditOutcome.DENIED, Map.of("on", "true")),
        event("admin", "session.login", "admin", AuditOutcome.FAILURE, Map.of()),
        event("admin", "user.unlock", "carol", AuditOutcome.FAILURE, Map.of()),
        event("anonymous", "api.refused", "POST /api/v1/users", AuditOutcome.DENIED, Map.of()));
  }

  /** A refused enrolment as the flood wrote them: {@code size} characters of the client's text. */
  private static AuditEvent refused(int i, int size) {
    return event(
        "agent:unknown",
        "agent.enrol",
        "",
        AuditOutcome.FAILURE,
        Map.of("endpoint", "x".repeat(size), "n", Integer.toString(i)));
  }

  private static AuditEvent event(
      String actor, String action, String target, AuditOutcome outcome, Map<String, String> d) {
    return new AuditEvent(actor, "10.0.0.9", action, target, outcome, d);
  }
}
