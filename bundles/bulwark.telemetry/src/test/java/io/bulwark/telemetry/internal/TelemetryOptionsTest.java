package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.annotation.Annotation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TelemetryOptionsTest {

  /** Builds the configuration DS would hand over, with the default roll-up settings. */
  static TelemetryConfig config(String fileSd, long interval, long timeout, int retention) {
    return config(fileSd, interval, timeout, retention, 6, "", 14, 1);
  }

  /** Builds the configuration DS would hand over. */
  static TelemetryConfig config(
      String fileSd,
      long interval,
      long timeout,
      int retention,
      int rollupHours,
      String rollupFolder,
      int rollupRetentionDays,
      int rollupFlushMinutes) {
    return config(
        fileSd,
        interval,
        timeout,
        retention,
        rollupHours,
        rollupFolder,
        rollupRetentionDays,
        rollupFlushMinutes,
        0);
  }

  static TelemetryConfig config(
      String fileSd,
      long interval,
      long timeout,
      int retention,
      int rollupHours,
      String rollupFolder,
      int rollupRetentionDays,
      int rollupFlushMinutes,
      long maxStretched) {
    return new TelemetryConfig() {
      @Override
      public Class<? extends Annotation> annotationType() {
        return TelemetryConfig.class;
      }

      @Override
      public String fileSd() {
        return fileSd;
      }

      @Override
      public long scrapeIntervalMillis() {
        return interval;
      }

      @Override
      public long scrapeTimeoutMillis() {
        return timeout;
      }

      @Override
      public int retentionSamples() {
        return retention;
      }

      @Override
      public int rollupHours() {
        return rollupHours;
      }

      @Override
      public String rollupFolder() {
        return rollupFolder;
      }

      @Override
      public int rollupRetentionDays() {
        return rollupRetentionDays;
      }

      @Override
      public int rollupFlushMinutes() {
        return rollupFlushMinutes;
      }

      @Override
      public int maxSeriesPerTarget() {
        return TargetLimits.STANDARD.maxSeriesPerTarget();
      }

      @Override
      public int maxNewSeriesPerScrape() {
        return TargetLimits.STANDARD.maxNewSeriesPerScrape();
      }

      @Override
      public int maxNodesPerTarget() {
        return TargetLimits.STANDARD.maxNodesPerTarget();
      }

      @Override
      public int maxSeries() {
        return 0;
      }

      @Override
      public long maxStretchedIntervalMillis() {
        return maxStretched;
      }
    };
  }

  @Test
  void convertsAValidConfiguration() {
    TelemetryOptions options =
        TelemetryOptions.from(config("data/sim-targets.json", 1000, 800, 600));

    assertThat(options)
        .isEqualTo(new TelemetryOptions(Path.of("data/sim-targets.json"), 1000, 800, 600));
    assertThat(options.maxStretchedIntervalMillis()).isEqualTo(4000);
  }

  @Test
  void loadSheddingStretchesUpToTheLongestIntervalGivenAndEqualToTheIntervalIsOff() {
    assertThat(
            TelemetryOptions.from(config("t.json", 1000, 800, 600, 1, "", 7, 1, 2500))
                .maxStretchedIntervalMillis())
        .isEqualTo(2500);
    assertThat(
            TelemetryOptions.from(config("t.json", 1000, 800, 600, 1, "", 7, 1, 1000))
                .maxStretchedIntervalMillis())
        .isEqualTo(1000);
    assertThatThrownBy(
            () -> TelemetryOptions.from(config("t.json", 1000, 800, 600, 1, "", 7, 1, 999)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "maxStretchedIntervalMillis must be between scrapeIntervalMillis (1000, no load"
                + " shedding) and 60 times it, got 999");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      t.json | 0    | 800  | 600 | scrapeIntervalMillis must be a positive number of milliseconds, got 0
      t.json | -5   | 800  | 600 | scrapeIntervalMillis must be a positive number of milliseconds, got -5
      t.json | 1000 | 1000 | 600 | scrapeTimeoutMillis must be positive and shorter than scrapeIntervalMillis (1000), got 1000
      t.json | 1000 | 0    | 600 | scrapeTimeoutMillis must be positive and shorter than scrapeIntervalMillis (1000), got 0
      t.json | 1000 | 800  | 9   | retentionSamples must be at least 10, got 9
      '  '   | 1000 | 800  | 600 | fileSd must be the path of the file_sd targets file, got '  '
      """)
  void refusesInvalidValuesNamingPropertyAndValue(
      String file, long interval, long timeout, int retention, String message) {
    assertThatThrownBy(() -> TelemetryOptions.from(config(file, interval, timeout, retention)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void refusesAPathTheFileSystemCannotHold() {
    assertThatThrownBy(() -> TelemetryOptions.from(config("bad\u0000name", 1000, 800, 600)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("fileSd is not a valid path");
  }

  @Test
  void convertsTheRollupSettings() {
    RollupOptions options =
        RollupOptions.from(
            config("t.json", 1000, 800, 600, 6, " /var/lib/bulwark/rollups ", 14, 2));

    assertThat(options)
        .isEqualTo(new RollupOptions(360, Path.of("/var/lib/bulwark/rollups"), 14, 2));
    assertThat(options.archived()).isTrue();
    assertThat(RollupOptions.from(config("t.json", 1000, 800, 600)).archived()).isFalse();
    assertThat(RollupOptions.from(config("t.json", 1000, 800, 600, 0, "/r", 14, 1)).archived())
        .isFalse();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      -1 | 14 | 1  | rollupHours must be between 0 and 24, got -1
      25 | 14 | 1  | rollupHours must be between 0 and 24, got 25
      6  | 0  | 1  | rollupRetentionDays must be at least 1, got 0
      6  | 14 | 0  | rollupFlushMinutes must be between 1 and 60, got 0
      6  | 14 | 61 | rollupFlushMinutes must be between 1 and 60, got 61
      """)
  void refusesInvalidRollupSettingsNamingPropertyAndValue(
      int hours, int days, int flush, String message) {
    assertThatThrownBy(
            () -> RollupOptions.from(config("t.json", 1000, 800, 600, hours, "r", days, flush)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }
}
