package io.bulwark.api.telemetry;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What one source pushes about one node at once ({@link TelemetryIngest#push}): its readings and,
 * if the source is the one that says which GPUs the node has (an in-band agent, as a scraped
 * exporter does), those GPUs.
 *
 * @param source the source's name, 1-64 of a-z, 0-9, '.' and '-' starting with a letter (e.g.
 *     {@code bmc}, {@code commissioning}); it names the source in logs and refusals
 * @param node the node the readings are of
 * @param atMillis when the source took the batch (epoch milliseconds)
 * @param reportedGpus the GPUs the node reports now, if this source reports them: then the node is
 *     listed by {@link TelemetryQuery#nodes()} with these GPUs and {@code atMillis} is its latest
 *     report, as after a scrape. Null for a source that only adds readings (a BMC's sensors, a
 *     test's results): it neither lists the node nor keeps it from going stale.
 * @param readings at most {@link #MAX_READINGS}
 * @since 1.4
 */
public record TelemetryBatch(
    String source, NodeId node, long atMillis, List<Gpu> reportedGpus, List<Reading> readings) {
  /** The most readings one batch may carry. */
  public static final int MAX_READINGS = 100_000;

  private static final Pattern SOURCE = Pattern.compile("[a-z][a-z0-9.-]{0,63}");

  /**
   * @throws IllegalArgumentException if the source's name is not valid or there are more than
   *     {@link #MAX_READINGS} readings
   */
  public TelemetryBatch {
    Objects.requireNonNull(node, "node");
    if (source == null || !SOURCE.matcher(source).matches()) {
      throw new IllegalArgumentException(
          "a telemetry source's name is 1-64 of a-z, 0-9, '.', '-' starting with a letter, not '"
              + source
              + "'");
    }
    readings = List.copyOf(readings);
    reportedGpus = reportedGpus == null ? null : List.copyOf(reportedGpus);
    if (readings.size() > MAX_READINGS) {
      throw new IllegalArgumentException(
          "source "
              + source
              + " pushed "
              + readings.size()
              + " readings for "
              + node
              + " at once; split them into batches of at most "
              + MAX_READINGS);
    }
  }

  /** Returns a batch of readings from a source that does not report the node's GPUs. */
  public static TelemetryBatch readings(
      String source, NodeId node, long atMillis, List<Reading> readings) {
    return new TelemetryBatch(source, node, atMillis, null, readings);
  }
}
