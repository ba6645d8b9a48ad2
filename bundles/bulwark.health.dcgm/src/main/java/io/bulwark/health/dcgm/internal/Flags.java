package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.telemetry.Sample;

/**
 * Reads flag- and gauge-like fields over a window: whether the newest sample of the window is above
 * zero, and the newest value of a field for the evidence. Used by the memory detectors.
 */
final class Flags {
  private Flags() {}

  /**
   * Returns the newest finite value of {@code metric} on {@code gpu} taken at or after {@code
   * fromMillis}, or NaN.
   */
  static double latest(DetectionContext context, ObservedGpu gpu, String metric, long fromMillis) {
    Sample newest = context.telemetry().latest(gpu.series(metric));
    return newest != null
            && newest.timestampMillis() >= fromMillis
            && Double.isFinite(newest.value())
        ? newest.value()
        : Double.NaN;
  }

  /** Returns true if the newest sample of {@code metric} in the window is above zero. */
  static boolean raised(DetectionContext context, ObservedGpu gpu, String metric, long fromMillis) {
    return latest(context, gpu, metric, fromMillis) > 0;
  }

  /** Adds the newest value of {@code metric} to the evidence under {@code key}, if there is one. */
  static void addLatest(
      Evidence evidence, DetectionContext context, ObservedGpu gpu, String metric, String key) {
    Sample s = context.telemetry().latest(gpu.series(metric));
    if (s != null && Double.isFinite(s.value())) {
      evidence.put(key, s.value());
    }
  }
}
