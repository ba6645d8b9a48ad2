package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Warns before heat costs performance. A GPU's thermal margin is its slowdown temperature ({@code
 * DCGM_FI_DEV_SLOWDOWN_TEMP}, else {@code DCGM_FI_DEV_GPU_MAX_OP_TEMP}) minus {@code
 * DCGM_FI_DEV_GPU_TEMP}; it is too thin when below the minimum margin in the sustained share of the
 * window. A busy GPU that runs much hotter than the median of the busy GPUs of its model on the
 * same node (same air, same work) is reported too, however far from slowdown: its cooling is worse
 * than its neighbours'. Idle GPUs are not compared. A warning at full performance: the clocks have
 * not dropped yet (that is the thermal-throttle detector's).
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.thermal-margin",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = ThermalMarginDetectorConfig.class)
public final class ThermalMarginDetector implements Detector {
  private final ThermalMarginOptions options;
  private final long evaluationIntervalMillis;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public ThermalMarginDetector(ThermalMarginDetectorConfig config) {
    this(ThermalMarginOptions.from(config), Cadence.millis(config.evaluationIntervalSeconds()));
  }

  ThermalMarginDetector(ThermalMarginOptions options) {
    this(options, 0);
  }

  ThermalMarginDetector(ThermalMarginOptions options, long evaluationIntervalMillis) {
    this.options = options;
    this.evaluationIntervalMillis = evaluationIntervalMillis;
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(
        DetectorInput.of(DcgmField.GPU_TEMP),
        DetectorInput.anyOf(DcgmField.SLOWDOWN_TEMP, DcgmField.GPU_MAX_OP_TEMP));
  }

  @Override
  public long evaluationIntervalMillis() {
    return evaluationIntervalMillis;
  }

  @Override
  public String name() {
    return FindingKind.THERMAL_MARGIN;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = WindowOptions.windowStart(context.nowMillis(), options.windowSeconds());
    List<Reading> readings = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      SampleWindow window = context.telemetry().window(gpu.series(DcgmField.GPU_TEMP), from);
      double[] temps = RobustStatistics.finite(window);
      if (!Coverage.covers(temps.length, window, options.minSeconds())) {
        continue;
      }
      boolean busy =
          EvaluationMemo.of(context).busyness(gpu, from, options.busyUtilPercent()).busy();
      readings.add(
          new Reading(gpu, temps, RobustStatistics.median(temps), limit(context, gpu), busy));
    }
    Map<List<Object>, List<Reading>> groups = new HashMap<>();
    for (Reading r : readings) {
      groups.computeIfAbsent(List.of(r.gpu.node(), r.gpu.model()), k -> new ArrayList<>()).add(r);
    }
    List<Condition> conditions = new ArrayList<>();
    for (Reading r : readings) {
      double share =
          Double.isFinite(r.limit)
              ? (double)
                      Arrays.stream(r.temps)
                          .filter(t -> r.limit - t < options.minMarginCelsius())
                          .count()
                  / r.temps.length
              : 0;
      double[] peers = peerMedians(r, groups.get(List.of(r.gpu.node(), r.gpu.model())));
      double peerMedian = RobustStatistics.median(peers);
      boolean thin = share >= options.sustainedFraction();
      boolean hotterThanPeers =
          r.busy
              && peers.length >= options.minPeers()
              && r.median - peerMedian >= options.peerGapCelsius();
      if (thin || hotterThanPeers) {
        boolean throttling = thin && throttlingForHeat(context, r.gpu, from);
        conditions.add(condition(r, share, peers.length, peerMedian, thin, throttling));
      }
    }
    return conditions;
  }

  /**
   * Returns true if the GPU's newest clock-event reasons in the window say its clocks are held down
   * for heat now (software or hardware thermal slowdown), busy or not.
   */
  private static boolean throttlingForHeat(DetectionContext context, ObservedGpu gpu, long from) {
    double reasons = Flags.latest(context, gpu, DcgmField.CLOCKS_EVENT_REASONS, from);
    if (!Double.isFinite(reasons)) {
      return false;
    }
    long mask = (long) reasons;
    return ClockEventReason.SW_THERMAL_SLOWDOWN.isSet(mask)
        || ClockEventReason.HW_THERMAL_SLOWDOWN.isSet(mask);
  }

  private Condition condition(
      Reading r, double share, int peers, double peerMedian, boolean thin, boolean throttling) {
    ObservedGpu gpu = r.gpu;
    Evidence evidence =
        Evidence.of(DcgmField.GPU_TEMP)
            .values("values", r.temps)
            .put("medianGpuTempCelsius", r.median)
            .put("samplesBelowMargin", Evidence.percent(share))
            .threshold(
                "margin to slowdown < "
                    + Evidence.number(options.minMarginCelsius())
                    + " °C in >= "
                    + Evidence.percent(options.sustainedFraction())
                    + " of samples, or a busy GPU >= "
                    + Evidence.number(options.peerGapCelsius())
                    + " °C above the median of >= "
                    + options.minPeers()
                    + " busy same-model peers on its node")
            .window(options.windowSeconds())
            .put("peers", peers);
    if (Double.isFinite(r.limit)) {
      evidence.put("slowdownTempCelsius", r.limit).put("medianMarginCelsius", r.limit - r.median);
    }
    if (Double.isFinite(peerMedian)) {
      evidence.put("peerMedianGpuTempCelsius", peerMedian);
    }
    if (throttling) {
      evidence.put("throttlingForHeat", "yes");
    }
    String summary =
        thin
            ? gpu.describe()
                + " runs "
                + (r.limit - r.median >= 0
                    ? Evidence.number(r.limit - r.median) + " °C below"
                    : Evidence.number(r.median - r.limit) + " °C above")
                + " its slowdown temperature ("
                + Evidence.number(r.median)
                + " of "
                + Evidence.number(r.limit)
                + (throttling
                    ? " °C) and its clocks are already held down for heat (see its thermal-throttle"
                        + " finding)"
                    : " °C): it will throttle soon")
            : gpu.describe()
                + " runs "
                + Evidence.number(r.median - peerMedian)
                + " °C hotter than its "
                + peers
                + " busy peers on the node ("
                + Evidence.number(r.median)
                + " against "
                + Evidence.number(peerMedian)
                + " °C)";
    int i = gpu.index();
    String action =
        "Check the airflow to GPU "
            + i
            + " of "
            + gpu.node().value()
            + ": fans and their speed, blanking panels, blocked inlets, inlet temperature (BMC"
            + " sensors); if the neighbours are cool with the same airflow, drain the node at the"
            + " next window to reseat the GPU's heatsink or replace its thermal interface";
    return new Condition(
        FindingKind.THERMAL_MARGIN,
        gpu.node(),
        i,
        Severity.WARNING,
        summary,
        evidence.toMap(),
        action,
        1.0);
  }

  /** Returns the median temperatures of the other busy GPUs of {@code r}'s node and model. */
  private static double[] peerMedians(Reading r, List<Reading> sameNodeAndModel) {
    return sameNodeAndModel.stream()
        .filter(p -> p != r && p.busy)
        .mapToDouble(p -> p.median)
        .toArray();
  }

  private static double limit(DetectionContext context, ObservedGpu gpu) {
    for (String metric : List.of(DcgmField.SLOWDOWN_TEMP, DcgmField.GPU_MAX_OP_TEMP)) {
      Sample s = context.telemetry().latest(gpu.series(metric));
      if (s != null && Double.isFinite(s.value()) && s.value() > 0) {
        return s.value();
      }
    }
    return Double.NaN;
  }

  private record Reading(
      ObservedGpu gpu, double[] temps, double median, double limit, boolean busy) {}
}
