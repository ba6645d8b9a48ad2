package io.bulwark.pxe.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class RepeatedWarningsTest {
  private final DhcpResponderTest.MutableClock clock = new DhcpResponderTest.MutableClock();
  private final List<String> logged = new ArrayList<>();
  private final Logger log = Logger.getAnonymousLogger();

  RepeatedWarningsTest() {
    log.setUseParentHandlers(false);
    log.addHandler(
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            logged.add(record.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        });
  }

  @Test
  void aClientsRepeatedWarningIsLoggedOnceAMinuteWithTheCountHeldBack() {
    RepeatedWarnings warnings = new RepeatedWarnings(log, clock);
    for (int i = 0; i < 500; i++) {
      warnings.warn("range-full aa:bb", () -> "No address left for aa:bb");
      clock.now = clock.now.plusMillis(100);
    }
    assertThat(logged).containsExactly("No address left for aa:bb");

    clock.now = clock.now.plus(Duration.ofSeconds(11));
    assertThat(warnings.warn("range-full aa:bb", () -> "No address left for aa:bb")).isTrue();
    assertThat(logged)
        .last()
        .isEqualTo(
            "No address left for aa:bb (499 more like this in the last minute were not logged)");
  }

  @Test
  void anotherClientOrAnotherKindOfWarningIsLoggedAtOnce() {
    RepeatedWarnings warnings = new RepeatedWarnings(log, clock);
    assertThat(warnings.warn("range-full aa:bb", () -> "first")).isTrue();
    assertThat(warnings.warn("range-full aa:cc", () -> "second")).isTrue();
    assertThat(warnings.warn("no-loader aa:bb", () -> "third")).isTrue();
    assertThat(warnings.warn("range-full aa:bb", () -> "again")).isFalse();
    assertThat(logged).containsExactly("first", "second", "third");
  }
}
