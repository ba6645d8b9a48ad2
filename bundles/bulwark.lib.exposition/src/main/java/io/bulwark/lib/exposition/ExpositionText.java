package io.bulwark.lib.exposition;

/**
 * What writers of the Prometheus text format share: label values escaped as the format requires,
 * and numbers with six decimals as dcgm-exporter prints DCGM's doubles. Static helpers;
 * thread-safe.
 */
public final class ExpositionText {
  private static final long[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000};

  private ExpositionText() {}

  /** Appends {@code value} with six decimals (Go's {@code %f}), without allocating. */
  public static void appendDecimal(StringBuilder out, double value) {
    long micros = Math.round(value * 1_000_000);
    if (micros < 0) {
      out.append('-');
      micros = -micros;
    }
    out.append(micros / 1_000_000).append('.');
    long fraction = micros % 1_000_000;
    for (int digits = 5; digits > 0 && fraction < POWERS_OF_TEN[digits]; digits--) {
      out.append('0');
    }
    out.append(fraction);
  }

  /** Returns a label value escaped as the Prometheus text format requires ({@code \\ \" \n}). */
  public static String escapeLabelValue(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
