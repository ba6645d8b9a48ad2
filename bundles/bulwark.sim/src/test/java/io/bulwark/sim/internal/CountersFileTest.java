package io.bulwark.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.health.Detector;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.lib.exposition.DcgmFieldInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The dcgm-exporter counters file Bulwark ships ({@code appliance-image/etc/dcgm-exporter}) asks
 * the exporter for every field a detector or the node page's charts read, and for no other, in
 * dcgm-exporter's own format, with the metric type dcgm-exporter gives each field; the simulator
 * serves the same fields by default.
 */
class CountersFileTest {
  private static final Path FILE =
      Path.of("../../appliance-image/etc/dcgm-exporter/bulwark-counters.csv");

  private static Map<String, String> fields() throws Exception {
    Map<String, String> types = new LinkedHashMap<>();
    int number = 0;
    for (String line : Files.readAllLines(FILE)) {
      number++;
      String text = line.strip();
      if (text.isEmpty() || text.startsWith("#")) {
        continue;
      }
      String[] parts = text.split(",", 3);
      assertThat(parts).as("line %d: DCGM FIELD, type, help", number).hasSize(3);
      String name = parts[0].strip();
      String type = parts[1].strip();
      assertThat(parts[2].strip()).as("line %d: help text", number).isNotEmpty();
      assertThat(types.put(name, type)).as("line %d: %s listed twice", number, name).isNull();
    }
    return types;
  }

  @Test
  void everyLineIsAFieldDcgmExporterKnowsWithItsType() throws Exception {
    Map<String, String> types = fields();
    assertThat(types).isNotEmpty();
    types.forEach(
        (name, type) -> assertThat(type).as(name).isEqualTo(DcgmFieldInfo.of(name).type()));
  }

  /** The fields the node page charts. */
  static final Set<String> CHARTED = Set.copyOf(DcgmField.NODE_CHARTS);

  /**
   * The simulator serves exactly the file's fields by default; that each of them is read is shown
   * by DetectorsOverSimulatedFleetTest, which finds every kind of fault over such nodes.
   */
  @Test
  void theSimulatorServesExactlyTheFieldsAskedFor() throws Exception {
    Set<String> asked = fields().keySet();
    assertThat(asked).hasSize(34).containsAll(CHARTED);
    assertThat(Arrays.stream(Metric.COUNTERS_FILE).map(m -> m.field(false)))
        .containsExactlyInAnyOrderElementsOf(asked);
    assertThat(FieldSet.parse("counters").metrics()).containsExactly(Metric.COUNTERS_FILE);
    assertThat(FieldSet.parse("all").metrics()).hasSize(Metric.COUNT);
  }

  @Test
  void everyInputOfEveryDetectorIsAskedFor() throws Exception {
    Map<String, String> types = fields();
    List<Detector> detectors = DetectorRun.defaultDetectors();
    for (Detector d : detectors) {
      if (!d.name().equals(FindingKind.GPU_MISSING)
          && !d.name().equals(FindingKind.TELEMETRY_STALE)) {
        assertThat(d.inputs()).as("the fields %s reads", d.name()).isNotEmpty();
      }
      for (DetectorInput input : d.inputs()) {
        assertThat(types)
            .as("%s reads %s", d.name(), input.describe())
            .containsKey(input.anyOf().get(0));
      }
    }
  }
}
