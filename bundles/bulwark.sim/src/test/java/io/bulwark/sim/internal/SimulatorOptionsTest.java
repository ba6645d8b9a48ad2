package io.bulwark.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SimulatorOptionsTest {

  @Test
  void defaultsDescribeTheDemoFleet() {
    SimulatorOptions options = SimulatorOptions.from(TestConfigs.simulator(Map.of()));

    assertThat(options.enabled()).isTrue();
    assertThat(options.bindAddress()).isEqualTo("127.0.0.1");
    assertThat(options.port()).isEqualTo(9400);
    assertThat(options.fileSd()).isEqualTo(Path.of("data/sim-targets.json"));
    assertThat(options.nodes()).isEqualTo(64);
    assertThat(options.gpusPerNode()).isEqualTo(8);
    assertThat(options.nodePrefix()).isEqualTo("gpu-node-");
    assertThat(options.scenario()).isEqualTo(Scenario.DEMO);
    assertThat(options.seed()).isEqualTo(42);
  }

  @Test
  void acceptsTheEdgesOfEachRange() {
    SimulatorOptions options =
        SimulatorOptions.from(
            TestConfigs.simulator(
                Map.of(
                    "port",
                    0,
                    "nodes",
                    1,
                    "gpusPerNode",
                    16,
                    "scenario",
                    "none",
                    "nodePrefix",
                    "",
                    "seed",
                    -7L)));

    assertThat(options.port()).isZero();
    assertThat(options.nodes()).isEqualTo(1);
    assertThat(options.gpusPerNode()).isEqualTo(16);
    assertThat(options.scenario()).isEqualTo(Scenario.NONE);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "port        | -1",
        "port        | 65536",
        "nodes       | 0",
        "nodes       | 4097",
        "gpusPerNode | 0",
        "gpusPerNode | 17",
      })
  void rejectsOutOfRangeNumbersNamingTheProperty(String property, int value) {
    assertThatThrownBy(() -> SimulatorOptions.from(TestConfigs.simulator(Map.of(property, value))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(property + " ")
        .hasMessageContaining(String.valueOf(value));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "bindAddress | ''",
        "bindAddress | ' 127.0.0.1'",
        "fileSd      | ''",
        "fileSd      | 'bad\u0000path'",
        "nodePrefix  | '-node-'",
        "nodePrefix  | 'gpu node '",
        "scenario    | 'chaos'",
        "scenario    | 'DEMO'",
      })
  void rejectsBadTextNamingTheProperty(String property, String value) {
    assertThatThrownBy(() -> SimulatorOptions.from(TestConfigs.simulator(Map.of(property, value))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(property + " ");
  }
}
