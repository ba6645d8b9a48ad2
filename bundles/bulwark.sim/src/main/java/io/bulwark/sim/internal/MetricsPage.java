package io.bulwark.sim.internal;

/**
 * Writes one node's page in dcgm-exporter's text format: for each field a {@code # HELP} and a
 * {@code # TYPE} line, then one line per GPU with dcgm-exporter's labels, integers as integers and
 * DCGM's floating-point fields with six decimals. Used by {@link SimulatedFleet}; allocation-light,
 * since every scrape renders a fresh page.
 */
final class MetricsPage {
  private static final long[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000};

  private MetricsPage() {}

  /**
   * Renders the page.
   *
   * @param olderExporter true to name the clock-event reasons by their former name, as older
   *     exporters do
   * @param labels the label set of each GPU, without braces
   * @param values the readings of each GPU, indexed by {@link Metric#ordinal()}
   * @param present false for a GPU whose lines are left out
   */
  static String render(
      boolean olderExporter, String[] labels, double[][] values, boolean[] present) {
    StringBuilder out = new StringBuilder(Metric.COUNT * (120 + labels.length * 220));
    for (Metric metric : Metric.values()) {
      String name = metric.field(olderExporter);
      out.append("# HELP ")
          .append(name)
          .append(' ')
          .append(metric.help(olderExporter))
          .append('\n');
      out.append("# TYPE ").append(name).append(' ').append(metric.type()).append('\n');
      for (int gpu = 0; gpu < labels.length; gpu++) {
        if (!present[gpu]) {
          continue;
        }
        out.append(name).append('{').append(labels[gpu]).append("} ");
        double value = values[gpu][metric.ordinal()];
        if (metric.decimal()) {
          appendSixDecimals(out, value);
        } else {
          out.append((long) value);
        }
        out.append('\n');
      }
    }
    return out.toString();
  }

  /** Appends {@code value} with six decimals, as Go's {@code %f} prints it. */
  static void appendSixDecimals(StringBuilder out, double value) {
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

  /** Returns a label value escaped as the Prometheus text format requires. */
  static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
