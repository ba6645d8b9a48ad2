package io.bulwark.health.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.Severity;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApplianceDetectorTest {
  private static final Instant SINCE = Instant.parse("2026-12-01T08:00:00Z");

  private static SubsystemStatus status(String name, SubsystemState state) {
    return new SubsystemStatus(
        name,
        state,
        name + " sees something",
        "do something about " + name,
        SINCE,
        Map.of("bulwark_" + name + "_free_bytes", 123.0));
  }

  @Test
  void aSubsystemThatIsNotUpBecomesAFindingOnTheApplianceThatSaysWhatToDo() {
    ApplianceDetector detector = new ApplianceDetector();
    detector.add(() -> status("store", SubsystemState.DOWN));
    detector.add(() -> status("audit", SubsystemState.DEGRADED));
    detector.add(() -> status("telemetry", SubsystemState.UP));
    detector.add(
        () -> {
          throw new IllegalStateException("broken check");
        });

    List<Condition> conditions = detector.evaluate(null);

    assertThat(conditions)
        .extracting(Condition::kind)
        .containsExactlyInAnyOrder("appliance-store", "appliance-audit");
    Condition store =
        conditions.stream()
            .filter(c -> c.kind().equals("appliance-store"))
            .findFirst()
            .orElseThrow();
    assertThat(store.node().value()).isEqualTo("bulwark-appliance");
    assertThat(store.gpu()).isEqualTo(-1);
    assertThat(store.severity()).isEqualTo(Severity.CRITICAL);
    assertThat(store.summary()).isEqualTo("Appliance store DOWN: store sees something");
    assertThat(store.recommendedAction()).isEqualTo("do something about store");
    assertThat(store.evidence())
        .containsEntry("bulwark_store_free_bytes", "123")
        .containsEntry("since", SINCE.toString());
    assertThat(
            conditions.stream()
                .filter(c -> c.kind().equals("appliance-audit"))
                .findFirst()
                .orElseThrow()
                .severity())
        .isEqualTo(Severity.WARNING);
  }

  @Test
  void subsystemNamesBecomeValidKinds() {
    assertThat(ApplianceDetector.kind("admin-plane")).isEqualTo("appliance-admin-plane");
    assertThat(ApplianceDetector.kind("Admin Plane!")).isEqualTo("appliance-admin-plane");
  }
}
