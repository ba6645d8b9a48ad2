package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ScrapeLogTest {
  /** Keeps what is logged, formatted as System.Logger formats it. */
  private static final class Kept implements Logger {
    final List<String> lines = new ArrayList<>();

    @Override
    public String getName() {
      return "kept";
    }

    @Override
    public boolean isLoggable(Level level) {
      return true;
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
      lines.add(msg);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
      lines.add(java.text.MessageFormat.format(format, params));
    }
  }

  @Test
  void thousandsOfTargetsFailingAtOnceWriteAFewLinesAndOneSum() {
    Kept kept = new Kept();
    AtomicLong now = new AtomicLong(1_000_000);
    ScrapeLog log = new ScrapeLog(kept, now::get);

    for (int t = 0; t < 2048; t++) {
      log.log(Level.WARNING, "Scrape of {0} failed: {1}", "http://n" + t + "/metrics", "timeout");
    }
    assertThat(kept.lines).hasSize(ScrapeLog.PER_MINUTE);
    assertThat(log.withheld()).isEqualTo(2048 - ScrapeLog.PER_MINUTE);

    now.addAndGet(60_000);
    log.log(Level.INFO, "Target {0} is scraped without problems again", "http://n0/metrics");

    assertThat(kept.lines).hasSize(ScrapeLog.PER_MINUTE + 2);
    assertThat(kept.lines.get(ScrapeLog.PER_MINUTE))
        .matches("Telemetry: 2.?028 more scrape problem\\(s\\).*")
        .contains("System page");
    assertThat(kept.lines.get(ScrapeLog.PER_MINUTE + 1)).contains("without problems again");
    assertThat(log.withheld()).isZero();
  }
}
