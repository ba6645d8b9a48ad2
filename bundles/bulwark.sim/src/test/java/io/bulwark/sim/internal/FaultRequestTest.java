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
  void durationAndXidAreOptional() {
    FaultRequest request =
        parse("{\"node\":\"gpu-node-016\",\"gpu\":7,\"kind\":\"straggler\",\"xid\":null}");

    assertThat(request.durationMillis()).isEqualTo(Fault.UNTIL_DELETED);
    assertThat(request.xid()).isEqualTo(FaultKind.DEFAULT_XID);
    assertThat(request.kind()).isEqualTo(FaultKind.STRAGGLER);
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
            "xid, ecc-dbe, row-remap-failure, thermal-throttle, power-throttle, straggler,"
                + " gpu-missing");
  }

  private FaultRequest parse(String body) {
    return FaultRequest.parse(Buffer.buffer(body), fleet);
  }
}
