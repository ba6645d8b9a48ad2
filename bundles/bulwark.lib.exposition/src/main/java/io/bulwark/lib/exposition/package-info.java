/**
 * The Prometheus text exposition format, read and written the one way across Bulwark: {@link
 * io.bulwark.lib.exposition.ExpositionParser} reads a page line by line into an {@link
 * io.bulwark.lib.exposition.ExpositionSink} without allocating per sample (a {@link
 * io.bulwark.lib.exposition.SeriesSink} also skips what repeats from one page to the next); {@link
 * io.bulwark.lib.exposition.ExpositionText} and {@link io.bulwark.lib.exposition.DcgmFieldInfo}
 * write pages as dcgm-exporter does (label escaping, DCGM's value formatting, each field's type and
 * help). Used by telemetry (reading), the simulator and the node agent (writing).
 */
@Export
@Version("1.0.0")
package io.bulwark.lib.exposition;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
