package io.bulwark.audit.internal;

import static io.bulwark.audit.internal.AuditFixture.appendAll;
import static io.bulwark.audit.internal.AuditFixture.open;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compliance checks that read audit records, on a real log: the record fields of the latest
 * records, and the classes of event found (Not Reviewed, naming what to do, until each has one).
 */
class AuditRecordChecksTest {
  @TempDir Path folder;
  private final InMemorySecretStore secrets = new InMemorySecretStore();
  private final Instant now = Instant.parse("2026-12-04T12:00:00Z");

  @Test
  void theLastSequenceIsFoundByIndexedProbesAtEverySize() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      assertThat(AuditRecordChecks.lastSequence(log)).isZero();
      for (int n = 1; n <= 70; n++) {
        appendAll(log, 1);
        long last = AuditRecordChecks.lastSequence(log);
        assertThat(last).as("after %d appends", n).isEqualTo(log.verify().recordsChecked());
      }
      assertThat(AuditRecordChecks.latest(log, 10)).hasSize(10);
      assertThat(AuditRecordChecks.latest(log, 10).get(9).sequence())
          .isEqualTo(AuditRecordChecks.lastSequence(log));
    }
  }

  @Test
  void theFirstRecordSinceAMomentIsFoundByProbes() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      appendAll(log, 20);
      Instant seventh = AuditRecordChecks.latest(log, 20).get(6).at();
      assertThat(AuditRecordChecks.firstSequenceAtOrAfter(log, Instant.EPOCH)).isEqualTo(1);
      assertThat(AuditRecordChecks.firstSequenceAtOrAfter(log, seventh))
          .isLessThanOrEqualTo(7)
          .isEqualTo(
              AuditRecordChecks.latest(log, 20).stream()
                  .filter(r -> !r.at().isBefore(seventh))
                  .findFirst()
                  .orElseThrow()
                  .sequence());
      assertThat(AuditRecordChecks.firstSequenceAtOrAfter(log, Instant.now().plusSeconds(60)))
          .isEqualTo(21);
    }
  }

  @Test
  void recordsWithEveryFieldAreMetAndTheLatestIsEvidence() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      CheckResult empty = new AuditRecordChecks.Fields(log).run(now);
      assertThat(empty.status()).isEqualTo(CheckStatus.NOT_REVIEWED);
      appendAll(log, 12);
      CheckResult r = new AuditRecordChecks.Fields(log).run(now);
      assertThat(r.status()).as(r.summary()).isEqualTo(CheckStatus.NOT_A_FINDING);
      assertThat(r.evidence()).containsEntry("recordsRead", "12");
      assertThat(r.evidence().get("latestRecord")).startsWith("#12 ").contains("outcome=");
      log.append(new AuditEvent(" ", "10.0.0.1", "nodot", "", AuditOutcome.SUCCESS, Map.of()));
      CheckResult bad = new AuditRecordChecks.Fields(log).run(now);
      assertThat(bad.status()).isEqualTo(CheckStatus.OPEN);
      assertThat(bad.evidence().get("faults"))
          .contains("record 13 names no actor", "record 13 has no component.function action");
    }
  }

  @Test
  void eventClassesAreNotReviewedUntilEachHasARecordThenMet() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      log.append(ev("session.login", AuditOutcome.SUCCESS));
      CheckResult partial = new AuditRecordChecks.Classes(log).run(now);
      assertThat(partial.status()).isEqualTo(CheckStatus.NOT_REVIEWED);
      assertThat(partial.summary())
          .contains("unsuccessful logon (log in with a wrong password)", "account removal");
      assertThat(partial.evidence().get("successful logon (session created)"))
          .startsWith("#1 ")
          .contains("session.login by admin (SUCCESS)");
      for (String a :
          new String[] {"user.create", "password.change", "user.delete", "user.unlock"}) {
        log.append(ev(a, AuditOutcome.SUCCESS));
      }
      log.append(ev("session.login", AuditOutcome.FAILURE));
      log.append(ev("settings.in-effect", AuditOutcome.SUCCESS));
      assertThat(new AuditRecordChecks.Classes(log).run(now).summary())
          .isEqualTo(
              "no record yet of: access to security objects (export the audit log). Do each once,"
                  + " then run the checks again");
      log.append(ev("audit.export", AuditOutcome.SUCCESS));
      CheckResult all = new AuditRecordChecks.Classes(log).run(now);
      assertThat(all.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
      assertThat(all.evidence()).doesNotContainValue("no record yet");
    }
  }

  private static AuditEvent ev(String action, AuditOutcome outcome) {
    return new AuditEvent("admin", "10.0.0.1", action, "x", outcome, Map.of());
  }

  @Test
  void settingsRecordedSinceThisStartAreMetAndAnOlderRecordIsOpen() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      Instant start = Instant.now().minusSeconds(5);
      assertThat(new AuditRecordChecks.AtStartup(log, start).run(now).status())
          .isEqualTo(CheckStatus.OPEN);
      log.append(ev(SettingChanges.IN_EFFECT, AuditOutcome.SUCCESS));
      CheckResult met = new AuditRecordChecks.AtStartup(log, start).run(now);
      assertThat(met.status()).as(met.summary()).isEqualTo(CheckStatus.NOT_A_FINDING);
      assertThat(met.evidence().get("settingsRecorded")).startsWith("#1 ");
      CheckResult stale =
          new AuditRecordChecks.AtStartup(log, Instant.now().plusSeconds(60)).run(now);
      assertThat(stale.status()).isEqualTo(CheckStatus.OPEN);
    }
  }

  @Test
  void aSearchOfTheLastDaysLoginsFindsThem() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      log.append(ev("session.login", AuditOutcome.SUCCESS));
      log.append(ev("user.create", AuditOutcome.SUCCESS));
      log.append(ev("session.login", AuditOutcome.FAILURE));
      CheckResult r = new AuditRecordChecks.Search(log).run(Instant.now());
      assertThat(r.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
      assertThat(r.evidence()).containsEntry("recordsFound", "2");
    }
  }
}
