package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Finds fail-slow GPUs that ordinary tools call healthy. Over the window, each busy GPU's median SM
 * clock (and SM activity, when telemetry has it) is compared with its peers, the busy GPUs of the
 * same model across the fleet, using the median and the robust deviation (MAD) of their medians. A
 * GPU lags when it is below the peer median by more than the relative drop and more than the given
 * robust deviations, in at least the sustained share of its samples, so one noisy sample does not
 * make a straggler. At least {@code minPeers} other busy GPUs are needed. A GPU whose thermal or
 * power throttle bits are set in the sustained share of its samples is left to the throttle
 * detectors (their finding explains the slowness); below that, it is reported with the share of
 * throttled samples in the evidence.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.straggler",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = StragglerDetectorConfig.class)
public final class StragglerDetector implements Detector {
  private static final long THROTTLE_BITS =
      ClockEventReason.SW_THERMAL_SLOWDOWN.mask()
          | ClockEventReason.HW_THERMAL_SLOWDOWN.mask()
          | ClockEventReason.SW_POWER_CAP.mask()
          | ClockEventReason.HW_POWER_BRAKE_SLOWDOWN.mask();
  private static final double MIN_FACTOR = 0.05;

  private final StragglerOptions options;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public StragglerDetector(StragglerDetectorConfig config) {
    this(StragglerOptions.from(config));
  }

  StragglerDetector(StragglerOptions options) {
    this.options = options;
  }

  @Override
  public String name() {
    return FindingKind.STRAGGLER;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = WindowOptions.windowStart(context.nowMillis(), options.windowSeconds());
    Map<String, List<Profile>> byModel = new LinkedHashMap<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      Profile p = profile(context, gpu, from);
      if (p != null) {
        byModel.computeIfAbsent(gpu.model(), k -> new ArrayList<>()).add(p);
      }
    }
    List<Condition> conditions = new ArrayList<>();
    for (List<Profile> group : byModel.values()) {
      if (group.size() < options.minPeers() + 1) {
        continue;
      }
      PeerBaseline clocks = baseline(group.stream().mapToDouble(p -> p.smClockMedian).toArray());
      double[] activeMedians =
          group.stream()
              .filter(p -> p.smActive.length > 0)
              .mapToDouble(p -> p.smActiveMedian)
              .toArray();
      PeerBaseline activity =
          options.compareSmActive() && activeMedians.length >= options.minPeers() + 1
              ? baseline(activeMedians)
              : null;
      for (Profile p : group) {
        boolean slowClock = lags(p.smClock, p.smClockMedian, clocks);
        boolean lowActivity =
            activity != null
                && p.smActive.length > 0
                && lags(p.smActive, p.smActiveMedian, activity);
        if ((slowClock || lowActivity) && p.throttledShare < options.sustainedFraction()) {
          conditions.add(condition(p, clocks, activity, slowClock, lowActivity));
        }
      }
    }
    return conditions;
  }

  private PeerBaseline baseline(double[] medians) {
    return PeerBaseline.of(medians, options.relativeDrop(), options.madMultiplier());
  }

  private boolean lags(double[] samples, double median, PeerBaseline peers) {
    return median < peers.threshold() && peers.shareBelow(samples) >= options.sustainedFraction();
  }

  private Profile profile(DetectionContext context, ObservedGpu gpu, long from) {
    Busyness busyness = Busyness.judge(context.telemetry(), gpu, from, options.busyUtilPercent());
    if (!busyness.busy()) {
      return null;
    }
    double[] clock =
        RobustStatistics.finite(context.telemetry().window(gpu.series(DcgmField.SM_CLOCK), from));
    if (clock.length < options.minSamples()) {
      return null;
    }
    double[] active =
        options.compareSmActive()
            ? RobustStatistics.finite(
                context.telemetry().window(gpu.series(DcgmField.SM_ACTIVE), from))
            : new double[0];
    if (active.length < options.minSamples()) {
      active = new double[0];
    }
    double[] masks =
        RobustStatistics.finite(
            context.telemetry().window(gpu.series(DcgmField.CLOCKS_EVENT_REASONS), from));
    long throttled =
        Arrays.stream(masks).filter(m -> m >= 0 && ((long) m & THROTTLE_BITS) != 0).count();
    double throttledShare = masks.length == 0 ? 0 : (double) throttled / masks.length;
    return new Profile(
        gpu,
        clock,
        RobustStatistics.median(clock),
        active,
        RobustStatistics.median(active),
        throttledShare);
  }

  private Condition condition(
      Profile p,
      PeerBaseline clocks,
      PeerBaseline activity,
      boolean slowClock,
      boolean lowActivity) {
    double clockRatio = p.smClockMedian / clocks.median();
    double factor = slowClock ? clockRatio : 1.0;
    if (lowActivity) {
      factor = Math.min(factor, p.smActiveMedian / activity.median());
    }
    factor = Math.max(MIN_FACTOR, Math.min(1.0, Double.isFinite(factor) ? factor : 1.0));
    String model = p.gpu.model().isEmpty() ? "same-model" : p.gpu.model();
    Evidence evidence =
        Evidence.of(slowClock ? DcgmField.SM_CLOCK : DcgmField.SM_ACTIVE)
            .values("values", slowClock ? p.smClock : p.smActive)
            .window(options.windowSeconds())
            .threshold(slowClock ? thresholdWords(clocks, " MHz") : thresholdWords(activity, ""))
            .put("peers", (clocks.peers() - 1) + " other busy " + model + " GPUs")
            .put("smClockMedianMhz", p.smClockMedian)
            .put("peerSmClockMedianMhz", clocks.median())
            .put("peerSmClockRobustDeviationMhz", clocks.deviation())
            .put("smClockSamplesBelow", Evidence.percent(clocks.shareBelow(p.smClock)))
            .put(
                "throttledSamples",
                Evidence.percent(p.throttledShare)
                    + " with a thermal or power throttle bit (left to the throttle detectors from "
                    + Evidence.percent(options.sustainedFraction())
                    + ")")
            .put("performanceFactor", factor);
    if (activity != null && p.smActive.length > 0) {
      evidence
          .put("smActiveMedian", p.smActiveMedian)
          .put("peerSmActiveMedian", activity.median())
          .put("smActiveSamplesBelow", Evidence.percent(activity.shareBelow(p.smActive)));
    }
    String what =
        slowClock
            ? "median SM clock "
                + Evidence.number(p.smClockMedian)
                + " MHz against "
                + Evidence.number(clocks.median())
                + " MHz ("
                + Evidence.percent(clockRatio)
                + ")"
            : "median SM activity "
                + Evidence.number(p.smActiveMedian)
                + " against "
                + Evidence.number(activity.median());
    String summary =
        p.gpu.describe()
            + " runs slower than its "
            + (clocks.peers() - 1)
            + " busy "
            + model
            + " peers: "
            + what
            + " over the last "
            + options.windowSeconds()
            + " s";
    String node = p.gpu.node().value();
    int i = p.gpu.index();
    String action =
        "Drain "
            + node
            + " and run the DCGM diagnostic on GPU "
            + i
            + " (dcgmi diag -r 3 -i "
            + i
            + "); check its clocks and PCIe link (nvidia-smi -q -d CLOCK,PERFORMANCE -i "
            + i
            + ", lspci -vv for the"
            + " link width); if it stays slower than its peers, re-seat or RMA GPU "
            + i;
    return new Condition(
        FindingKind.STRAGGLER,
        p.gpu.node(),
        i,
        Severity.WARNING,
        summary,
        evidence.toMap(),
        action,
        factor);
  }

  private String thresholdWords(PeerBaseline b, String unit) {
    return "median and >= "
        + Evidence.percent(options.sustainedFraction())
        + " of samples below "
        + Evidence.number(b.threshold())
        + unit
        + " (peer median "
        + Evidence.number(b.median())
        + unit
        + " less the larger of "
        + Evidence.percent(options.relativeDrop())
        + " and "
        + Evidence.number(options.madMultiplier())
        + " robust deviations of "
        + Evidence.number(b.deviation())
        + unit
        + ")";
  }

  private record Profile(
      ObservedGpu gpu,
      double[] smClock,
      double smClockMedian,
      double[] smActive,
      double smActiveMedian,
      double throttledShare) {}
}
