package io.bulwark.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FaultRequestTest {
  private final SimulatedFleet fleet =
      new SimulatedFleet(16, 8, "gpu-node-", 42, 0, new FaultBook());

  @Test
  void readsAFullRequest() {
    FaultRequest request =
        parse(
            "{\"node\":\"gpu-node-007\",\"gpu\":3,\"kind\":\"xid\",\"durationSeconds\":120,\"xid\":48,\"note\":1}");

    assertThat(request).isEqualTo(new FaultRequest("gpu-node-007", 3, FaultKind.XID, 48, 120_000));
  }

  @Test
  void durationAndParameterAreOptionalAndOtherKindsParametersIgnored() {
    FaultRequest request =
        parse("{\"node\":\"gpu-node-016\",\"gpu\":7,\"kind\":\"straggler\",\"xid\":null}");

    assertThat(request.durationMillis()).isEqualTo(Fault.UNTIL_DELETED);
    assertThat(request.value()).isEqualTo(10.0);
    assertThat(request.kind()).isEqualTo(FaultKind.STRAGGLER);
    assertThat(parse("{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"xid\"}").value())
        .isEqualTo(79.0);
    assertThat(
            parse("{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"ecc-dbe\",\"xid\":5}").value())
        .isNaN();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "sbe-storm             | errorsPerMinute    | 240  | 240",
        "retired-pages-pending | pages              | 64   | 64",
        "spare-rows-low        | banks              | 5    | 5",
        "nvlink-errors         | crcErrorsPerSecond | 0    | 0",
        "pcie-replay           | replaysPerMinute   | 12.5 | 12.5",
        "pcie-downtrained      | width              | 4    | 4",
        "thermal-margin        | marginCelsius      | 1    | 1",
        "straggler             | slowdownPercent    | 25   | 25",
      })
  void readsEachKindsParameter(String kind, String name, String given, double expected) {
    FaultRequest request =
        parse(
            "{\"node\":\"gpu-node-002\",\"gpu\":0,\"kind\":\""
                + kind
                + "\",\""
                + name
                + "\":"
                + given
                + "}");

    assertThat(request.kind().word()).isEqualTo(kind);
    assertThat(request.value()).isEqualTo(expected);
  }

  @Test
  void aStaleNodeNeedsNoGpuAndTakesAMode() {
    FaultRequest close = parse("{\"node\":\"gpu-node-003\",\"kind\":\"telemetry-stale\"}");
    FaultRequest hang =
        parse("{\"node\":\"gpu-node-003\",\"kind\":\"telemetry-stale\",\"mode\":\"hang\"}");

    assertThat(close.gpu()).isZero();
    assertThat(close.value()).isEqualTo(FaultKind.STALE_CLOSE);
    assertThat(hang.value()).isEqualTo(FaultKind.STALE_HANG);
  }

  @Test
  void acceptsWholeNumbersWrittenWithADecimalPoint() {
    assertThat(parse("{\"node\":\"gpu-node-001\",\"gpu\":2.0,\"kind\":\"ecc-dbe\"}").gpu())
        .isEqualTo(2);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''                                                                    | JSON object",
        "'{'                                                                   | not valid JSON",
        "'[1,2]'                                                               | JSON object",
        "'\"xid\"'                                                             | JSON object",
        "'{\"gpu\":1,\"kind\":\"xid\"}'                                        | 'node'",
        "'{\"node\":7,\"gpu\":1,\"kind\":\"xid\"}'                             | 'node'",
        "'{\"node\":\"gpu-node-017\",\"gpu\":1,\"kind\":\"xid\"}'              | unknown node 'gpu-node-017'",
        "'{\"node\":\"gpu-node-001\",\"kind\":\"xid\"}'                        | 'gpu' is missing",
        "'{\"node\":\"gpu-node-001\",\"gpu\":8,\"kind\":\"xid\"}'              | 'gpu' must be a whole number from 0 to 7",
        "'{\"node\":\"gpu-node-001\",\"gpu\":-1,\"kind\":\"xid\"}'             | 'gpu' must be",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1.5,\"kind\":\"xid\"}'            | 'gpu' must be",
        "'{\"node\":\"gpu-node-001\",\"gpu\":\"1\",\"kind\":\"xid\"}'          | 'gpu' must be",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"melted\"}'           | unknown kind 'melted'",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1}'                               | unknown kind (missing)",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"xid\",\"durationSeconds\":0}'    | 'durationSeconds'",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"xid\",\"durationSeconds\":\"5\"}' | 'durationSeconds'",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"xid\",\"xid\":0}'                | 'xid'",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"xid\",\"xid\":1e30}'             | 'xid'",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"xid\",\"xid\":7.5}'              | 'xid' must be a whole number from 1 to 1000",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"pcie-downtrained\",\"width\":6}'  | 'width' must be one of [1, 2, 4, 8]",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"sbe-storm\",\"errorsPerMinute\":0}' | 'errorsPerMinute' must be a number from 1 to 100000",
        "'{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"straggler\",\"slowdownPercent\":\"10\"}' | 'slowdownPercent'",
        "'{\"node\":\"gpu-node-001\",\"kind\":\"telemetry-stale\",\"mode\":\"drop\"}'     | 'mode' must be one of close, hang",
        "'{\"node\":\"gpu-node-001\",\"kind\":\"telemetry-stale\",\"gpu\":9}'            | 'gpu' must be",
      })
  void rejectsBadRequestsSayingWhatIsWrong(String body, String message) {
    assertThatThrownBy(() -> parse(body))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  @Test
  void listsTheKindsWhenTheKindIsUnknown() {
    assertThatThrownBy(() -> parse("{\"node\":\"gpu-node-001\",\"gpu\":1,\"kind\":\"XID\"}"))
        .hasMessageContaining(
            "xid, ecc-dbe, sbe-storm, retired-pages-pending, row-remap-pending,"
                + " row-remap-failure, spare-rows-low, nvlink-errors, pcie-replay,"
                + " pcie-downtrained, thermal-throttle, power-throttle, thermal-margin, straggler,"
                + " gpu-missing, telemetry-stale");
  }

  private FaultRequest parse(String body) {
    return FaultRequest.parse(Buffer.buffer(body), fleet);
  }
}
