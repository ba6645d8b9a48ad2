package io.bulwark.api.telemetry;

import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The scrape targets telemetry knows and how each last went. Provided by the telemetry bundle; used
 * by the web API and the diagnostics. Thread-safe.
 */
@ProviderType
public interface TelemetryTargets {

  /** Returns the status of every target, sorted by URL. Never null. */
  List<TargetStatus> targets();
}
