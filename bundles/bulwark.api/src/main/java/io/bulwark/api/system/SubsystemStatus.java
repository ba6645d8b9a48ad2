package io.bulwark.api.system;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One subsystem's report: its state, a sentence on what it sees, what to do when it is not {@link
 * SubsystemState#UP}, since when it has been in this state, and the measurements behind it as
 * Prometheus gauges (full metric names such as {@code bulwark_store_disk_free_bytes}, no labels).
 *
 * @param subsystem short lower-case name, e.g. {@code store}, {@code audit}, {@code telemetry}
 * @param state how well it works
 * @param summary what it sees, in the operator's words; never null
 * @param action what to do about it; empty when {@code state} is UP
 * @param since when it entered {@code state}
 * @param measurements gauge values by metric name (copied, sorted by name)
 */
public record SubsystemStatus(
    String subsystem,
    SubsystemState state,
    String summary,
    String action,
    Instant since,
    Map<String, Double> measurements) {

  public SubsystemStatus {
    Objects.requireNonNull(subsystem, "subsystem");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(since, "since");
    action = Objects.requireNonNullElse(action, "");
    measurements =
        measurements == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new TreeMap<>(measurements));
  }
}
