package io.bulwark.api.telemetry;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The way into telemetry for every source that is not a scraped page: BMC sensors read over
 * Redfish, commissioning results, rack collectors. A pushed reading is filed into the same series
 * as scraped samples of that node, GPU and metric, so the detectors, the roll-ups (and their files)
 * and the API see it as they see a scrape; the same limits apply (series budget, new series per
 * batch). Provided by the telemetry bundle. Thread-safe; a push never waits for a scrape.
 *
 * @since 1.4
 */
@ProviderType
public interface TelemetryIngest {

  /** The most series one batch may start. */
  int MAX_NEW_SERIES_PER_BATCH = 4096;

  /**
   * Files {@code batch}'s readings, each in its series, in time order per series.
   *
   * @return what was filed and what was refused (refusals are also logged once a minute per source,
   *     naming the source, the node and the reason)
   */
  IngestReceipt push(TelemetryBatch batch);
}
