package io.bulwark.health.bmc.internal;

import static io.bulwark.health.bmc.internal.PolledMachines.NOW;
import static io.bulwark.health.bmc.internal.PolledMachines.at;
import static io.bulwark.health.bmc.internal.PolledMachines.sensor;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.bmc.BmcSensor.Kind;
import io.bulwark.api.health.Condition;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The inlet temperature detector on the sensors a Redfish BMC gives in either shape, as the Redfish
 * driver turns them into readings: a Thermal entry or a Sensors member whose name says intake
 * ("Front Panel Intake Temperature", as in the DMTF mockups), and one named only by its
 * PhysicalContext ("Temp 7", read as "Temp 7 (Intake)"), are inlets; a reading of another kind with
 * the same name is not.
 */
class InletSensorShapesTest {
  private static final long FIVE_MIN = Duration.ofMinutes(5).toMillis();
  private final PolledMachines machines = new PolledMachines();

  @Test
  void anIntakeTemperatureFromEitherRedfishShapeIsAnInlet() {
    machines
        .add(
            "named",
            "n1",
            NOW,
            List.of(
                sensor("Front Panel Intake Temperature", Kind.TEMPERATURE, 33, "Cel", "OK", 5, 40)))
        .add(
            "by-context",
            "n2",
            NOW,
            List.of(sensor("Temp 7 (Intake)", Kind.TEMPERATURE, 33.5, "Cel", "Warning", 5, 40)))
        .add(
            "not-a-temperature",
            "n3",
            NOW,
            List.of(sensor("Front Panel Intake Temperature", Kind.OTHER, 33, "Cel", "OK", 5, 40)));

    List<Condition> found = new InletTemperatureDetector(machines, 30, FIVE_MIN).evaluate(at(NOW));

    assertThat(found).extracting(c -> c.node().value()).containsExactly("n1", "n2");
    assertThat(found.get(1).summary())
        .isEqualTo(
            "Inlet air of machine by-context is 33.5 Cel, over its 30 Cel limit (Temp 7 (Intake))");
  }
}
