package io.bulwark.health.dcgm.internal;

import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.util.Arrays;
import java.util.Locale;

/**
 * Whether a GPU was busy over a window: by its median {@code DCGM_FI_DEV_GPU_UTIL} when telemetry
 * has it, else by the GPU_IDLE clock-event bit being clear in most samples. An idle GPU's clocks
 * say nothing about its health, so the throttle and straggler detectors judge busy GPUs only. The
 * words of the verdict ({@link #basis()}) are made only when evidence asks for them: the verdict is
 * reached for every GPU of the fleet at every evaluation.
 *
 * @param busy true if the GPU was busy
 * @param utilMedian the median utilisation in percent, NaN when not reported
 * @param busyUtilPercent the utilisation from which the GPU counts as busy
 * @param activeMasks clock-event samples with GPU_IDLE clear, when judged by them
 * @param masks clock-event samples, when judged by them (0 if judged by utilisation or not at all)
 */
record Busyness(
    boolean busy, double utilMedian, double busyUtilPercent, long activeMasks, int masks) {

  /** Judges {@code gpu} over the samples taken at or after {@code fromMillis}. */
  static Busyness judge(
      TelemetryQuery telemetry, ObservedGpu gpu, long fromMillis, double busyUtilPercent) {
    double[] util =
        RobustStatistics.finite(telemetry.window(gpu.series(DcgmField.GPU_UTIL), fromMillis));
    if (util.length > 0) {
      double median = RobustStatistics.median(util);
      return new Busyness(median >= busyUtilPercent, median, busyUtilPercent, 0, 0);
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
          active * 2 > masks.length, Double.NaN, busyUtilPercent, active, masks.length);
    }
    return new Busyness(false, Double.NaN, busyUtilPercent, 0, 0);
  }

  /** Says how the verdict was reached, for the evidence. */
  String basis() {
    if (!Double.isNaN(utilMedian)) {
      return String.format(
          Locale.ROOT,
          "median GPU_UTIL %s%% (busy at >= %s%%)",
          Evidence.number(utilMedian),
          Evidence.number(busyUtilPercent));
    }
    if (masks > 0) {
      return "no GPU_UTIL; GPU_IDLE bit clear in " + activeMasks + " of " + masks + " samples";
    }
    return "no GPU_UTIL or clock-event samples";
  }
}
