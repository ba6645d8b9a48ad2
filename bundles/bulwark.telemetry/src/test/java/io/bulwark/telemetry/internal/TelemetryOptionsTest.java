package io.bulwark.telemetry.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.annotation.Annotation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TelemetryOptionsTest {

  /** Builds the configuration DS would hand over. */
  static TelemetryConfig config(String fileSd, long interval, long timeout, int retention) {
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
    };
  }

  @Test
  void convertsAValidConfiguration() {
    TelemetryOptions options =
        TelemetryOptions.from(config("data/sim-targets.json", 1000, 800, 600));

    assertThat(options)
        .isEqualTo(new TelemetryOptions(Path.of("data/sim-targets.json"), 1000, 800, 600));
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
}
