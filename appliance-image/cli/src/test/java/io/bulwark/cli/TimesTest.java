package io.bulwark.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** How the end of a snooze or a maintenance window is read. */
class TimesTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00.250Z");

  private static String until(String value) throws UsageException {
    return Times.until("--until", value, NOW).toString();
  }

  @Test
  void durationsCountFromNow() throws Exception {
    assertThat(until("45s")).isEqualTo("2026-03-01T12:00:45Z");
    assertThat(until("30m")).isEqualTo("2026-03-01T12:30:00Z");
    assertThat(until("2h")).isEqualTo("2026-03-01T14:00:00Z");
    assertThat(until("1d")).isEqualTo("2026-03-02T12:00:00Z");
    assertThat(until("1w")).isEqualTo("2026-03-08T12:00:00Z");
    assertThat(until("1h30m")).isEqualTo("2026-03-01T13:30:00Z");
    assertThat(until("2H")).isEqualTo("2026-03-01T14:00:00Z");
    assertThat(until("PT2H")).isEqualTo("2026-03-01T14:00:00Z");
    assertThat(until("P1D")).isEqualTo("2026-03-02T12:00:00Z");
  }

  @Test
  void instantsAreTakenAsTheyAre() throws Exception {
    assertThat(until("2026-03-05T08:00:00Z")).isEqualTo("2026-03-05T08:00:00Z");
    assertThat(until("2026-03-05T08:00:00+02:00")).isEqualTo("2026-03-05T06:00:00Z");
  }

  @Test
  void anythingElseIsRefused() {
    for (String bad : new String[] {"", "soon", "2", "h", "-2h", "2 h", "2y", "2026-03-05"}) {
      assertThatThrownBy(() -> until(bad))
          .as(bad)
          .isInstanceOf(UsageException.class)
          .hasMessageContaining("--until must be an ISO-8601 instant");
    }
  }

  @Test
  void thePastIsRefused() {
    assertThatThrownBy(() -> until("2026-03-01T11:00:00Z"))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("is not in the future");
    assertThatThrownBy(() -> until("0m"))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("is not in the future");
    assertThatThrownBy(() -> until("PT-1H"))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("is not in the future");
  }

  @Test
  void lengthsAreShort() {
    assertThat(Times.length(42)).isEqualTo("42s");
    assertThat(Times.length(185)).isEqualTo("3m 5s");
    assertThat(Times.length(7500)).isEqualTo("2h 5m");
    assertThat(Times.length(273_600)).isEqualTo("3d 4h");
  }
}
