package io.bulwark.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AgentOptionsTest {

  @Test
  void acceptsTheDefaults() {
    AgentOptions options = new AgentOptions("127.0.0.1", 9400, "libnvidia-ml.so.1", "n1", 500);

    assertThat(options.port()).isEqualTo(9400);
  }

  @Test
  void refusesValuesOutOfRangeNamingTheProperty() {
    assertThatThrownBy(() -> new AgentOptions("127.0.0.1", 70000, "libnvidia-ml.so.1", "n1", 0))
        .hasMessageContaining("port of io.bulwark.agent");
    assertThatThrownBy(() -> new AgentOptions(" ", 9400, "libnvidia-ml.so.1", "n1", 0))
        .hasMessageContaining("bindAddress");
    assertThatThrownBy(() -> new AgentOptions("127.0.0.1", 9400, "", "n1", 0))
        .hasMessageContaining("library");
    assertThatThrownBy(() -> new AgentOptions("127.0.0.1", 9400, "libnvidia-ml.so.1", "a\nb", 0))
        .hasMessageContaining("hostname");
    assertThatThrownBy(() -> new AgentOptions("127.0.0.1", 9400, "libnvidia-ml.so.1", "n1", 60_001))
        .hasMessageContaining("sampleReuseMillis");
  }

  @Test
  void anEmptyHostnameBecomesThisMachinesName() {
    assertThat(AgentOptions.localHostname()).isNotBlank();
  }
}
