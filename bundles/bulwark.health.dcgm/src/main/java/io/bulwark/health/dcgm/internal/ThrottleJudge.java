package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.SampleWindow;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.stream.Collectors;

/**
 * Decides whether a GPU is throttled in a sustained way: it is busy, and either the window holds
 * busy clock-event samples (GPU_IDLE clear) covering enough time (samples times their spacing, so
 * the same at any scrape interval: {@link Coverage}) with the throttle bits set in at least the
 * sustained share of them, or the driver's violation-time counter grew by at least that share of
 * the window. Idle seconds are no evidence either way: a job that pauses now and then does not hide
 * a GPU that is throttled whenever it works. Then measures how fast it runs: mean SM clock over the
 * window against the higher of its own peak over the reference window and the median clock of busy
 * GPUs of the same model. Used by the thermal and power throttle detectors.
 */
final class ThrottleJudge {
  private static final double MIN_FACTOR = 0.05;
  private static final double NANOS_PER_SECOND = 1e9;

  private final ThrottleOptions options;

  ThrottleJudge(ThrottleOptions options) {
    this.options = options;
  }

  long windowStart(long nowMillis) {
    return WindowOptions.windowStart(nowMillis, options.windowSeconds());
  }

  /**
   * @param throttled tells whether a clock-event bitmask counts as this kind of throttle
   * @param peers the fleet's clocks for this evaluation
   */
  Optional<Throttling> judge(
      DetectionContext context,
      ObservedGpu gpu,
      LongPredicate throttled,
      String violationMetric,
      PeerClocks peers) {
    long from = windowStart(context.nowMillis());
    EvaluationMemo memo = EvaluationMemo.of(context);
    SampleWindow window = memo.window(gpu.series(DcgmField.CLOCKS_EVENT_REASONS), from);
    List<Long> masks = new ArrayList<>();
    for (double v : window.values()) {
      if (Double.isFinite(v) && v >= 0 && v <= Long.MAX_VALUE) {
        masks.add((long) v);
      }
    }
    int hits = 0;
    int busy = 0;
    Set<ClockEventReason> seen = EnumSet.noneOf(ClockEventReason.class);
    for (long mask : masks) {
      if (ClockEventReason.GPU_IDLE.isSet(mask)) {
        continue;
      }
      busy++;
      if (throttled.test(mask)) {
        hits++;
        for (ClockEventReason r : ClockEventReason.values()) {
          if (r.isSet(mask)) {
            seen.add(r);
          }
        }
      }
    }
    boolean bitsSustained =
        Coverage.covers(busy, window, options.minSeconds())
            && (double) hits / busy >= options.sustainedFraction();
    double violation = violationShare(context, gpu, violationMetric, from);
    if (!bitsSustained && !(violation >= options.sustainedFraction())) {
      return Optional.empty();
    }
    Busyness busyness = memo.busyness(gpu, from, options.busyUtilPercent());
    if (!busyness.busy()) {
      return Optional.empty();
    }
    double mean =
        RobustStatistics.mean(
            RobustStatistics.finite(memo.window(gpu.series(DcgmField.SM_CLOCK), from)));
    long referenceFrom =
        WindowOptions.windowStart(context.nowMillis(), options.referenceWindowSeconds());
    double peak =
        RobustStatistics.max(
            RobustStatistics.finite(
                context.telemetry().window(gpu.series(DcgmField.SM_CLOCK), referenceFrom)));
    double peerMedian = peers.median(gpu.model());
    double reference = Double.isFinite(peerMedian) && !(peak >= peerMedian) ? peerMedian : peak;
    String basis =
        reference == peerMedian && Double.isFinite(peerMedian)
            ? "median SM clock of busy " + modelWords(gpu) + " GPUs in the fleet"
            : "this GPU's peak SM clock over the last " + options.referenceWindowSeconds() + " s";
    double factor = 1.0;
    if (Double.isFinite(mean) && Double.isFinite(reference) && reference > 0) {
      factor = Math.max(MIN_FACTOR, Math.min(1.0, mean / reference));
    } else {
      basis = "SM clock not reported: performance not measured";
    }
    String hex =
        masks.stream()
            .skip(Math.max(0, masks.size() - 20))
            .map(m -> "0x" + Long.toHexString(m).toUpperCase(Locale.ROOT))
            .collect(Collectors.joining(", ", "[", "]"));
    String reasons = seen.stream().map(Enum::name).collect(Collectors.joining("|"));
    return Optional.of(
        new Throttling(
            busy, hits, reasons, hex, violation, busyness, mean, reference, basis, factor));
  }

  /**
   * Returns the share of wall time the GPU spent in violation over the window, from the driver's
   * cumulative violation-time counter (nanoseconds, as dcgm-exporter serves it); NaN when the
   * counter is not served or the window is too short. The counter integrates what the event-reason
   * samples only glimpse once a second.
   */
  private double violationShare(
      DetectionContext context, ObservedGpu gpu, String metric, long from) {
    CounterRate rate = CounterRate.of(context.telemetry(), gpu.series(metric), from);
    if (rate.samples() < 2 || !rate.spans(options.windowSeconds() / 2.0)) {
      return Double.NaN;
    }
    return Math.max(0, Math.min(1, rate.increase() / (rate.elapsedSeconds() * NANOS_PER_SECOND)));
  }

  private static String modelWords(ObservedGpu gpu) {
    return gpu.model().isEmpty() ? "same-model" : gpu.model();
  }
}
