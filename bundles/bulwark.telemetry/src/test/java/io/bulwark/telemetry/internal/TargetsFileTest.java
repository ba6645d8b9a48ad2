package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.telemetry.ScrapeTarget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TargetsFileTest {

  @Test
  void readsTargetsWithLabelsPathAndScheme() {
    List<ScrapeTarget> targets =
        TargetsFile.parse(
            """
        [
          {"targets": ["10.0.0.1:9400", "10.0.0.2:9400"], "labels": {"node": "gpu-node-001", "rack": "r1"}},
          {"targets": ["10.0.0.3:9500"],
           "labels": {"__metrics_path__": "/dcgm/metrics", "__scheme__": "https", "__param_x": "y", "job": "dcgm"}},
          {"targets": ["gpu-node-004:9400"]}
        ]
        """);

    assertThat(targets)
        .containsExactly(
            new ScrapeTarget(
                "10.0.0.1:9400", "http", "/metrics", Map.of("node", "gpu-node-001", "rack", "r1")),
            new ScrapeTarget(
                "10.0.0.2:9400", "http", "/metrics", Map.of("node", "gpu-node-001", "rack", "r1")),
            new ScrapeTarget("10.0.0.3:9500", "https", "/dcgm/metrics", Map.of("job", "dcgm")),
            new ScrapeTarget("gpu-node-004:9400", "http", "/metrics", Map.of()));
    assertThat(targets.get(2).url()).isEqualTo("https://10.0.0.3:9500/dcgm/metrics");
  }

  @Test
  void aSyntaxErrorNamesWhereItIsWithoutQuotingTheFile() {
    assertThatThrownBy(() -> TargetsFile.parse("[\n  {\"targets\": [SECRET-TOKEN-7]}]"))
        .hasMessageStartingWith("not a JSON array of target groups (the JSON is invalid at line 2")
        .message()
        .doesNotContain("SECRET");
  }

  @Test
  void dropsDuplicateTargetsAndAcceptsAnEmptyList() {
    assertThat(TargetsFile.parse("[{\"targets\":[\"a:1\",\"a:1\"]},{\"targets\":[\"a:1\"]}]"))
        .hasSize(1);
    assertThat(TargetsFile.parse("[]")).isEmpty();
    assertThat(TargetsFile.parse("[{\"targets\":[]}]")).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      [{"targets": ["a:1"]                              | not a JSON array of target groups
      {"targets": ["a:1"]}                              | not a JSON array of target groups
      ''                                                | not a JSON array of target groups
      [{"targets": ["a:1"]}, 42]                        | entry 2 is not an object
      [{"labels": {}}]                                  | entry 1 has no "targets" array
      [{"targets": "a:1"}]                              | entry 1 has no "targets" array
      [{"targets": [9400]}]                             | entry 1: target 1 is not a "host:port" string
      [{"targets": ["a:1", "http://a:1/metrics"]}]      | entry 1: target 2 is not host:port
      [{"targets": [":9400"]}]                          | entry 1: target 1 has no host
      [{"targets": ["a:1"], "labels": ["x"]}]           | entry 1: "labels" is not an object of strings
      [{"targets": ["a:1"], "labels": {"rack": 7}}]     | entry 1: the value of a label is a number, not a string
      [{"targets": ["a:1"], "labels": {"__scheme__": "ftp"}}] | entry 1: __scheme__ is not http or https
      """)
  void refusesMalformedDocumentsSayingWhatIsWrong(String json, String reason) {
    assertThatThrownBy(() -> TargetsFile.parse(json))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(reason);
  }
}
