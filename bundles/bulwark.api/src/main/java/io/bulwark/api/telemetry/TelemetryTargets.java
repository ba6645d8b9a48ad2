package io.bulwark.api.telemetry;

import io.bulwark.api.fleet.NodeId;
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

  /**
   * Forgets a node that no target reports any more (an exporter invented it, or it left the fleet):
   * its recent samples and roll-ups in memory go, and the series it held no longer count against
   * the telemetry limits. Roll-up files already written stay until their retention ends. A target
   * that reports the node again starts it afresh.
   *
   * @return true if telemetry knew the node
   * @throws IllegalStateException if a target reported the node within the last minute; the message
   *     names the target, which must stop reporting it first
   * @since 1.3
   */
  boolean forget(NodeId node);
}
