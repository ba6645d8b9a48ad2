package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SubsystemChecksTest {

  @Test
  void aSubsystemThatNobodyReportsIsDownAndSaysSo() {
    SubsystemChecks checks = new SubsystemChecks();
    checks.add(new FixedCheck("store"));

    List<SubsystemStatus> all = checks.statuses();

    assertThat(all)
        .extracting(SubsystemStatus::subsystem)
        .containsExactly("audit", "engine", "store", "telemetry");
    SubsystemStatus audit = all.get(0);
    assertThat(audit.state()).isEqualTo(SubsystemState.DOWN);
    assertThat(audit.summary()).contains("no report from the audit subsystem");
    assertThat(SubsystemChecks.overall(all)).isEqualTo(SubsystemState.DOWN);
  }

  @Test
  void aCheckThatThrowsIsDownNotHidden() {
    SubsystemChecks checks = new SubsystemChecks();
    for (String name : SubsystemChecks.EXPECTED) {
      checks.add(new FixedCheck(name));
    }
    assertThat(SubsystemChecks.overall(checks.statuses())).isEqualTo(SubsystemState.UP);
    SubsystemCheck broken =
        () -> {
          throw new IllegalStateException("boom");
        };
    checks.add(broken);

    List<SubsystemStatus> all = checks.statuses();

    assertThat(all).anyMatch(s -> s.state() == SubsystemState.DOWN && s.summary().contains("boom"));
    assertThat(SubsystemChecks.overall(all)).isEqualTo(SubsystemState.DOWN);
  }

  @Test
  void theWorstReportOfASubsystemWinsAndDegradedIsNotUp() {
    SubsystemChecks checks = new SubsystemChecks();
    for (String name : SubsystemChecks.EXPECTED) {
      checks.add(new FixedCheck(name));
    }
    FixedCheck degraded = new FixedCheck("audit");
    degraded.set("audit", SubsystemState.DEGRADED, "quota 80% used", "archive", Map.of());
    checks.add(degraded);

    List<SubsystemStatus> all = checks.statuses();

    assertThat(all)
        .filteredOn(s -> s.subsystem().equals("audit"))
        .singleElement()
        .extracting(SubsystemStatus::state)
        .isEqualTo(SubsystemState.DEGRADED);
    assertThat(SubsystemChecks.overall(all)).isEqualTo(SubsystemState.DEGRADED);
  }
}
