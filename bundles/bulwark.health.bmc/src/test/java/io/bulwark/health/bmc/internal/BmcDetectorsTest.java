package io.bulwark.health.bmc.internal;

import static io.bulwark.health.bmc.internal.PolledMachines.NOW;
import static io.bulwark.health.bmc.internal.PolledMachines.at;
import static io.bulwark.health.bmc.internal.PolledMachines.sensor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.api.bmc.BmcSensor.Kind;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.Severity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The BMC detectors over readings as the machines bundle keeps them: each reports what it should on
 * the machine's node with the reading or entry as evidence, stays quiet on healthy readings, and
 * judges nothing from a BMC that stopped answering.
 */
class BmcDetectorsTest {
  private static final long FIVE_MIN = Duration.ofMinutes(5).toMillis();
  private final PolledMachines machines = new PolledMachines();

  @Test
  void aFanRatedCriticalOrBelowItsLowerThresholdIsReportedOncePerMachine() {
    machines
        .add(
            "m1",
            "gpu-node-001",
            NOW - 1_000,
            List.of(
                sensor("Fan 1", Kind.FAN, 9_800, "RPM", "OK", 1_500, Double.NaN),
                sensor("Fan 2", Kind.FAN, 900, "RPM", "OK", 1_500, Double.NaN),
                sensor("Fan 3", Kind.FAN, Double.NaN, "RPM", "Critical")))
        .add(
            "m2",
            null,
            NOW - 1_000,
            List.of(sensor("Fan 1", Kind.FAN, 9_800, "RPM", "OK", 1_500, Double.NaN)));

    List<Condition> found = new FanDetector(machines, FIVE_MIN).evaluate(at(NOW));

    assertThat(found).hasSize(1);
    Condition c = found.get(0);
    assertThat(c.kind()).isEqualTo("bmc-fan");
    assertThat(c.node()).isEqualTo(NodeId.of("gpu-node-001"));
    assertThat(c.gpu()).isEqualTo(-1);
    assertThat(c.severity()).isEqualTo(Severity.WARNING);
    assertThat(c.summary())
        .contains("Fan 2, Fan 3 failed on machine m1")
        .contains("900 RPM, below its lower threshold of 1500");
    assertThat(c.evidence())
        .containsEntry("machine", "m1")
        .containsEntry("fans", "3")
        .containsEntry("failedFans", "2")
        .containsEntry("fan", "Fan 2")
        .containsEntry("fan.reading", "900 RPM")
        .containsEntry("fan.lowerCritical", "1500 RPM")
        .containsEntry("fan2.health", "Critical");
    assertThat(c.performanceFactor()).isEqualTo(1.0);
  }

  @Test
  void readingsOfABmcThatStoppedAnsweringAreNotJudged() {
    machines
        .add(
            "stale",
            "n1",
            NOW - FIVE_MIN - 1,
            List.of(sensor("Fan 1", Kind.FAN, 0, "RPM", "Critical")))
        .add("failing", "n2", NOW, "BMC 10.0.0.9:443 did not answer", List.of(), List.of());

    assertThat(new FanDetector(machines, FIVE_MIN).evaluate(at(NOW))).isEmpty();
  }

  @Test
  void aMachineWithoutATelemetryNodeHasItsFindingOnANodeNamedByItsHostName() {
    machines.add("m9", null, NOW, List.of(sensor("Blower A", Kind.FAN, 0, "RPM", "Critical")));

    Condition c = new FanDetector(machines, FIVE_MIN).evaluate(at(NOW)).get(0);

    assertThat(c.node()).isEqualTo(NodeId.of("m9.site"));
    assertThat(c.summary()).startsWith("Fan Blower A failed on machine m9");
  }

  @Test
  void aFailedPowerSupplySaysHowManySuppliesAreLeft() {
    machines
        .add(
            "two",
            "n1",
            NOW,
            List.of(
                sensor("PSU1", Kind.POWER_SUPPLY, 1_200, "W", "OK"),
                sensor("PSU2", Kind.POWER_SUPPLY, 0, "W", "Critical")))
        .add(
            "four",
            "n2",
            NOW,
            List.of(
                sensor("PSU1", Kind.POWER_SUPPLY, 900, "W", "OK"),
                sensor("PSU2", Kind.POWER_SUPPLY, 900, "W", "OK"),
                sensor("PSU3", Kind.POWER_SUPPLY, 900, "W", "OK"),
                sensor("PSU4", Kind.POWER_SUPPLY, 0, "W", "Warning")))
        .add("fine", "n3", NOW, List.of(sensor("PSU1", Kind.POWER_SUPPLY, 900, "W", "OK")));

    List<Condition> found = new PowerSupplyDetector(machines, FIVE_MIN).evaluate(at(NOW));

    assertThat(found)
        .extracting(Condition::node)
        .extracting(NodeId::value)
        .containsExactly("n1", "n2");
    assertThat(found.get(0).summary())
        .isEqualTo("Power supply PSU2 of machine two failed (one supply left: no redundancy)");
    assertThat(found.get(0).recommendedAction())
        .contains("the next failure powers the machine off");
    assertThat(found.get(0).evidence())
        .containsEntry("powerSupplies", "2")
        .containsEntry("suppliesDelivering", "1")
        .containsEntry("powerSupply.health", "Critical");
    assertThat(found.get(1).summary())
        .isEqualTo("Power supply PSU4 of machine four degraded (3 of 4 supplies left)");
  }

  @Test
  void inletAirOverTheLimitOrTheSensorsOwnThresholdIsReported() {
    machines
        .add(
            "hot",
            "n1",
            NOW,
            List.of(
                sensor("Inlet Temp", Kind.TEMPERATURE, 31.5, "Cel", "OK"),
                sensor("CPU1 Temp", Kind.TEMPERATURE, 85, "Cel", "OK")))
        .add(
            "own-limit",
            "n2",
            NOW,
            List.of(sensor("System Board Inlet", Kind.TEMPERATURE, 28, "Cel", "OK", 3, 27)))
        .add(
            "cool",
            "n3",
            NOW,
            List.of(sensor("Ambient", Kind.TEMPERATURE, 24, "Cel", "OK", 3, 42)));

    List<Condition> found = new InletTemperatureDetector(machines, 30, FIVE_MIN).evaluate(at(NOW));

    assertThat(found).extracting(c -> c.node().value()).containsExactly("n1", "n2");
    assertThat(found.get(0).summary())
        .isEqualTo("Inlet air of machine hot is 31.5 Cel, over its 30 Cel limit (Inlet Temp)");
    assertThat(found.get(1).evidence()).containsEntry("threshold", "> 27 Cel");
    assertThatThrownBy(() -> new InletTemperatureDetector(machines, 90, FIVE_MIN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inletMaxCelsius");
  }

  @Test
  void aCriticalSensorIsReportedButFansSuppliesAndInletsAreLeftToTheirDetectors() {
    machines
        .add(
            "m1",
            "n1",
            NOW,
            List.of(
                sensor("CPU2 Temp", Kind.TEMPERATURE, 101, "Cel", "", 3, 95),
                sensor("P12V", Kind.VOLTAGE, 12.1, "V", "Critical"),
                sensor("Fan 1", Kind.FAN, 0, "RPM", "Critical"),
                sensor("Inlet", Kind.TEMPERATURE, 50, "Cel", "Critical")))
        .add(
            "m2",
            "n2",
            NOW,
            List.of(
                sensor("Fan 1", Kind.FAN, 0, "RPM", "Critical"),
                sensor("P5V", Kind.VOLTAGE, 5.0, "V", "OK", 4.5, 5.5)));

    List<Condition> found = new CriticalSensorDetector(machines, FIVE_MIN).evaluate(at(NOW));

    assertThat(found).hasSize(1);
    assertThat(found.get(0).summary())
        .isEqualTo("BMC sensor CPU2 Temp of machine m1 is Critical at 101 Cel and 1 more");
    assertThat(found.get(0).evidence())
        .containsEntry("criticalSensors", "2")
        .containsEntry("sensor.upperCritical", "95 Cel")
        .containsEntry("sensor2", "P12V");
  }

  @Test
  void hardwareFailuresInTheEventLogAreCriticalWithTheNewestEntryAsEvidence() {
    Instant now = Instant.ofEpochMilli(NOW);
    machines
        .add(
            "ecc",
            "n1",
            NOW,
            "",
            List.of(),
            List.of(
                entry(
                    "7", now.minusSeconds(60), "Critical", "Memory", "Uncorrectable ECC, DIMM A3"),
                entry("6", now.minusSeconds(3_600), "Critical", "Processor", "IERR: machine check"),
                entry("5", now.minusSeconds(30), "OK", "Memory", "Uncorrectable ECC deasserted")))
        .add(
            "old",
            "n2",
            NOW,
            "",
            List.of(),
            List.of(
                entry(
                    "1",
                    now.minus(Duration.ofHours(30)),
                    "Critical",
                    "Critical Interrupt",
                    "Bus Fatal Error")))
        .add(
            "noise",
            "n3",
            NOW,
            "",
            List.of(),
            List.of(
                entry("3", now, "Critical", "Temperature", "Temperature threshold exceeded"),
                entry("2", now, "Warning", "Memory", "Correctable ECC logging limit reached")));

    List<Condition> found =
        new SelHardwareDetector(machines, Duration.ofHours(24).toMillis(), FIVE_MIN)
            .evaluate(at(NOW));

    assertThat(found).hasSize(1);
    Condition c = found.get(0);
    assertThat(c.kind()).isEqualTo("bmc-sel-hardware");
    assertThat(c.severity()).isEqualTo(Severity.CRITICAL);
    assertThat(c.node().value()).isEqualTo("n1");
    assertThat(c.summary())
        .isEqualTo(
            "The BMC of machine ecc logged an uncorrectable memory ECC error: \"Uncorrectable ECC,"
                + " DIMM A3\" (2 failure entries)");
    assertThat(c.evidence())
        .containsEntry("selEntry", "7")
        .containsEntry("selSensorType", "Memory")
        .containsEntry("selCreated", now.minusSeconds(60).toString())
        .containsEntry("failureEntries", "2");
    assertThat(c.recommendedAction()).contains("DIMM").contains("event log entry 7");
  }

  @Test
  void eachFailureClassIsRecognisedFromTheSensorTypeOrTheMessage() {
    assertThat(SelClass.of(entry("1", null, "Critical", "Critical Interrupt", "PCI SERR")))
        .contains(SelClass.PCIE_FATAL);
    assertThat(SelClass.of(entry("2", null, "Critical", "", "PCIe Bus Fatal Error on slot 4")))
        .contains(SelClass.PCIE_FATAL);
    assertThat(SelClass.of(entry("3", null, "Critical", "Processor", "Machine Check Exception")))
        .contains(SelClass.CPU_MACHINE_CHECK);
    assertThat(
            SelClass.of(entry("4", null, "Critical", "Power Unit", "Power Unit Failure detected")))
        .contains(SelClass.POWER_FAILURE);
    assertThat(SelClass.of(entry("5", null, "Critical", "Power Supply", "Power Supply AC lost")))
        .contains(SelClass.POWER_FAILURE);
    assertThat(SelClass.of(entry("6", null, "Critical", "Memory", "Multi-bit error")))
        .contains(SelClass.MEMORY_UNCORRECTABLE);
    assertThat(SelClass.of(entry("7", null, "Warning", "Memory", "Correctable ECC"))).isEmpty();
    assertThat(SelClass.of(entry("8", null, "OK", "Power Unit", "Power Unit Failure"))).isEmpty();
  }

  @Test
  void anUndatedFailureEntryCountsUntilTheLogIsCleared() {
    machines.add(
        "m",
        "n",
        NOW,
        "",
        List.of(),
        List.of(entry("1", null, "Critical", "Memory", "Uncorrectable ECC")));

    List<Condition> found =
        new SelHardwareDetector(machines, Duration.ofHours(1).toMillis(), FIVE_MIN)
            .evaluate(at(NOW));

    assertThat(found)
        .singleElement()
        .satisfies(c -> assertThat(c.evidence()).containsEntry("selCreated", "not dated"));
  }

  private static BmcLogEntry entry(
      String id, Instant created, String severity, String sensorType, String message) {
    return new BmcLogEntry(id, created, severity, message, sensorType);
  }
}
