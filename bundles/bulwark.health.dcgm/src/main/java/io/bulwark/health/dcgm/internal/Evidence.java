package io.bulwark.health.dcgm.internal;

import io.bulwark.api.telemetry.SampleWindow;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Builds the evidence of a condition: the metric, the values seen, the threshold and the window,
 * plus whatever else explains the verdict, as strings an operator can read. Used by every detector
 * of this bundle.
 */
final class Evidence {
  private static final int MAX_VALUES = 20;

  private final Map<String, String> entries = new LinkedHashMap<>();

  private Evidence() {}

  /** Starts the evidence of a verdict on {@code metric}. */
  static Evidence of(String metric) {
    Evidence e = new Evidence();
    e.entries.put("metric", metric);
    return e;
  }

  Evidence put(String key, String value) {
    entries.put(key, value);
    return this;
  }

  Evidence put(String key, double value) {
    entries.put(key, number(value));
    return this;
  }

  /** Records the newest values of the window (at most 20), oldest first. */
  Evidence values(SampleWindow window) {
    return values("values", window.values());
  }

  /** Records the newest values (at most 20), oldest first, under {@code key}. */
  Evidence values(String key, double[] values) {
    double[] newest =
        Arrays.copyOfRange(values, Math.max(0, values.length - MAX_VALUES), values.length);
    entries.put(
        key,
        Arrays.stream(newest)
            .mapToObj(Evidence::number)
            .collect(Collectors.joining(", ", "[", "]")));
    return this;
  }

  Evidence threshold(String threshold) {
    entries.put("threshold", threshold);
    return this;
  }

  Evidence window(long seconds) {
    entries.put("window", "last " + seconds + " s");
    return this;
  }

  Map<String, String> toMap() {
    return Map.copyOf(entries);
  }

  /** Formats a number without trailing decimals when it is whole: "1980", "0.62", "NaN". */
  static String number(double value) {
    if (!Double.isFinite(value)) {
      return String.valueOf(value);
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return String.valueOf((long) value);
    }
    return String.format(Locale.ROOT, "%.2f", value);
  }

  /** Formats a share as a percentage: "62%". */
  static String percent(double share) {
    return String.format(Locale.ROOT, "%.0f%%", share * 100);
  }
}
