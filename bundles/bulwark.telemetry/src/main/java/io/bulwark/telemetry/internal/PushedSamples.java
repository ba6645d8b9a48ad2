package io.bulwark.telemetry.internal;

import io.bulwark.api.telemetry.IngestReceipt;
import io.bulwark.api.telemetry.Reading;
import io.bulwark.api.telemetry.TelemetryBatch;
import io.bulwark.api.telemetry.TelemetryIngest;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Files the batches other bundles push ({@link TelemetryIngest}) into the series store, beside what
 * scrapes file: each reading into the ring of its node, GPU and metric, under the series budget and
 * at most {@link TelemetryIngest#MAX_NEW_SERIES_PER_BATCH} new series a batch. A batch that reports
 * the node's GPUs counts as a report of the node, as a scrape does. Refusals are logged at most
 * once a minute per source. Thread-safe: every ring takes one writer at a time.
 */
final class PushedSamples {
  private static final System.Logger LOG = System.getLogger(PushedSamples.class.getName());
  private static final long LOG_EVERY_MILLIS = 60_000;

  /** At most this many sources are remembered for the once-a-minute refusal log. */
  private static final int MAX_LOGGED_SOURCES = 1024;

  private final SeriesStore store;
  private final LongSupplier clock;
  private final Map<String, Long> lastLogged = new ConcurrentHashMap<>();

  PushedSamples(SeriesStore store, LongSupplier clock) {
    this.store = store;
    this.clock = clock;
  }

  IngestReceipt push(TelemetryBatch batch) {
    NodeSeries node = store.node(batch.node());
    int accepted = 0;
    int outOfOrder = 0;
    int overLimits = 0;
    int created = 0;
    for (Reading r : batch.readings()) {
      SeriesRing ring = node.ring(r.metric(), r.gpu());
      if (ring == null) {
        if (created >= TelemetryIngest.MAX_NEW_SERIES_PER_BATCH) {
          overLimits++;
          continue;
        }
        ring = node.ringForWriting(r.metric(), r.gpu());
        if (ring == null) {
          overLimits++;
          continue;
        }
        created++;
      }
      if (ring.append(r.timestampMillis(), r.value())) {
        accepted++;
      } else {
        outOfOrder++;
      }
    }
    if (batch.reportedGpus() != null) {
      store.recordScrape(batch.node(), batch.reportedGpus(), batch.atMillis());
    }
    IngestReceipt receipt = new IngestReceipt(accepted, outOfOrder, overLimits);
    if (!receipt.complete()) {
      logRefusal(batch, receipt);
    }
    return receipt;
  }

  private void logRefusal(TelemetryBatch batch, IngestReceipt receipt) {
    long now = clock.getAsLong();
    Long last = lastLogged.get(batch.source());
    if (last != null && now - last < LOG_EVERY_MILLIS) {
      return;
    }
    if (lastLogged.size() >= MAX_LOGGED_SOURCES) {
      lastLogged.clear();
    }
    lastLogged.put(batch.source(), now);
    StringBuilder why = new StringBuilder();
    if (receipt.outOfOrder() > 0) {
      why.append(receipt.outOfOrder())
          .append(" not newer than the newest sample of their series (the source's clock, or a")
          .append(" second writer of the same series)");
    }
    if (receipt.overLimits() > 0) {
      why.append(why.length() > 0 ? "; " : "")
          .append(receipt.overLimits())
          .append(" beyond the telemetry limits (")
          .append(TelemetryIngest.MAX_NEW_SERIES_PER_BATCH)
          .append(" new series a batch, ")
          .append(store.budget().limit())
          .append(" series in all: see the telemetry subsystem)");
    }
    LOG.log(
        Level.WARNING,
        "Telemetry: source {0} pushed readings for {1} that were not filed: {2}; {3} filed."
            + " Further refusals from {0} are logged once a minute.",
        batch.source(),
        batch.node(),
        why,
        receipt.accepted());
  }
}
