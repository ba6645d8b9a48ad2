package io.bulwark.sim.internal;

/**
 * Writes one node's page in dcgm-exporter's text format: for each field a {@code # HELP} and a
 * {@code # TYPE} line, then one line per GPU with dcgm-exporter's labels, integers as integers and
 * DCGM's floating-point fields with six decimals. Used by {@link SimulatedFleet}; allocation-light,
 * since every scrape renders a fresh page.
 */
final class MetricsPage {

  private MetricsPage() {}

  /**
   * Renders the page.
   *
   * @param olderExporter true to name the clock-event reasons by their former name, as older
   *     exporters do
   * @param labels the label set of each GPU, without braces
   * @param values the readings of each GPU, indexed by {@link Metric#ordinal()}
   * @param present false for a GPU whose lines are left out
   * @param served the fields the page holds, in order
   */
  static String render(
      boolean olderExporter,
      String[] labels,
      double[][] values,
      boolean[] present,
      Metric[] served) {
    StringBuilder out = new StringBuilder(served.length * (120 + labels.length * 220));
    for (Metric metric : served) {
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
        metric.info().appendValue(out, value);
        out.append('\n');
      }
    }
    return out.toString();
  }
}
