/**
 * Telemetry: series of samples keyed by node, GPU and metric, the query service over recent samples
 * and their minute roll-ups, the ingest service through which any bundle pushes readings into the
 * same series as scraped pages, scrape target status, and the names of the dcgm-exporter fields
 * Bulwark reads.
 */
@Export
@Version("2.2.0")
package io.bulwark.api.telemetry;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
