package io.bulwark.health.dcgm.internal;

import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.util.Arrays;
import java.util.Locale;

/**
 * Whether a GPU was busy over a window: by its median {@code DCGM_FI_DEV_GPU_UTIL} when telemetry
 * has it, else by the GPU_IDLE clock-event bit being clear in most samples. An idle GPU's clocks
 * say nothing about its health, so the throttle and straggler detectors judge busy GPUs only.
 *
 * @param busy true if the GPU was busy
 * @param utilMedian the median utilisation in percent, NaN when not reported
 * @param basis how the verdict was reached, for the evidence
 */
record Busyness(boolean busy, double utilMedian, String basis) {

  /** Judges {@code gpu} over the samples taken at or after {@code fromMillis}. */
  static Busyness judge(
      TelemetryQuery telemetry, ObservedGpu gpu, long fromMillis, double busyUtilPercent) {
    double[] util =
        RobustStatistics.finite(telemetry.window(gpu.series(DcgmField.GPU_UTIL), fromMillis));
    if (util.length > 0) {
      double median = RobustStatistics.median(util);
      return new Busyness(
          median >= busyUtilPercent,
          median,
          String.format(
              Locale.ROOT,
              "median GPU_UTIL %s%% (busy at >= %s%%)",
              Evidence.number(median),
              Evidence.number(busyUtilPercent)));
    }
    double[] masks =
        RobustStatistics.finite(
            telemetry.window(gpu.series(DcgmField.CLOCKS_EVENT_REASONS), fromMillis));
    if (masks.length > 0) {
      long active =
          Arrays.stream(masks)
              .filter(m -> m >= 0 && !ClockEventReason.GPU_IDLE.isSet((long) m))
              .count();
      return new Busyness(
          active * 2 > masks.length,
          Double.NaN,
          "no GPU_UTIL; GPU_IDLE bit clear in " + active + " of " + masks.length + " samples");
    }
    return new Busyness(false, Double.NaN, "no GPU_UTIL or clock-event samples");
  }
}
