package io.bulwark.api.health;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The capacity account of one interval (an hour): the GPU-hours installed, the GPU-hours delivered
 * (each GPU weighted by its relative performance) and the GPU-hours lost, by cause. Installed =
 * delivered + the sum of the losses.
 *
 * @param start the interval's start, inclusive
 * @param end the interval's end, exclusive
 * @param observedMillis how much of the interval the engine was running and booking
 * @since 1.2
 */
public record CapacityInterval(
    Instant start,
    Instant end,
    long observedMillis,
    double gpuHoursInstalled,
    double gpuHoursDelivered,
    Map<LossCause, Double> gpuHoursLost) {

  public CapacityInterval {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    if (!end.isAfter(start)) {
      throw new IllegalArgumentException("interval ends at " + end + ", not after " + start);
    }
    EnumMap<LossCause, Double> losses = new EnumMap<>(LossCause.class);
    for (LossCause c : LossCause.values()) {
      losses.put(c, gpuHoursLost.getOrDefault(c, 0.0));
    }
    gpuHoursLost = Map.copyOf(losses);
  }

  /** Returns the GPU-hours lost to every cause together. */
  public double gpuHoursLostTotal() {
    return gpuHoursLost.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  /** Returns the GPU-hours lost to {@code cause}. */
  public double lost(LossCause cause) {
    return gpuHoursLost.get(cause);
  }
}
