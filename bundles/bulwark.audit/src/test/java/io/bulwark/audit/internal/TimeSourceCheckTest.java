package io.bulwark.audit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The time-source check on what chrony and systemd print (their output spelled as they print it):
 * synchronised, not synchronised, compared too rarely, and neither answering.
 */
class TimeSourceCheckTest {
  private final Instant now = Instant.parse("2026-12-04T12:00:00Z");

  private static CheckResult run(String chrony, String timedatectl) {
    Map<String, String> answers = new java.util.HashMap<>();
    if (chrony != null) {
      answers.put("chronyc", chrony);
    }
    if (timedatectl != null) {
      answers.put("timedatectl", timedatectl);
    }
    return new TimeSourceCheck(c -> answers.get(c.get(0))).run(Instant.EPOCH);
  }

  @Test
  void chronySynchronisedToAServerIsMet() {
    CheckResult r =
        run(
            "C0A80001,ntp1.site.mil,2,1764849600.123,0.000012,-0.000003,0.000021,-12.345,"
                + "-0.001,0.012,0.001234,0.000456,1024.5,Normal\n",
            null);
    assertThat(r.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
    assertThat(r.evidence())
        .containsEntry("reference", "C0A80001 (ntp1.site.mil)")
        .containsEntry("stratum", "2")
        .containsEntry("leapStatus", "Normal");
  }

  @Test
  void chronyNotSynchronisedOrPollingTooRarelyIsOpen() {
    assertThat(
            run("00000000,,0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,1.0,1.0,0.0,Not synchronised\n", null)
                .summary())
        .contains("not synchronised");
    CheckResult rare =
        run("C0A80001,ntp1,2,1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,131072.0,Normal\n", null);
    assertThat(rare.status()).isEqualTo(CheckStatus.OPEN);
    assertThat(rare.summary()).contains("less often than every 24 hours");
  }

  @Test
  void systemdIsAskedWhenChronyIsAbsentAndNothingAnsweringIsOpen() {
    assertThat(run(null, "NTP=yes\nNTPSynchronized=yes\n").status())
        .isEqualTo(CheckStatus.NOT_A_FINDING);
    assertThat(run(null, "NTP=yes\nNTPSynchronized=no\n").status()).isEqualTo(CheckStatus.OPEN);
    CheckResult none = run(null, null);
    assertThat(none.status()).isEqualTo(CheckStatus.OPEN);
    assertThat(none.summary()).contains("no time synchronisation answers");
  }
}
