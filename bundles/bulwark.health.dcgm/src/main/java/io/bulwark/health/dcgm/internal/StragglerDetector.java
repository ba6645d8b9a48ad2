package io.bulwark.health.dcgm.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Finds fail-slow GPUs that ordinary tools call healthy. The GPUs of one model on one node do the
 * same work, so each is compared with them second by second on SM clock, SM activity (GPU_UTIL when
 * SM activity is not exported) and power draw, with a robust z-score and a CUSUM change-point test
 * ({@link PeerCusum}): a sustained shortfall accumulates (a 10 % slower GPU is caught in about 20 s
 * at one sample a second) while short noise does not. A whole node slowing down together is not a
 * straggler, and idle GPUs are neither judged nor peers. A GPU whose thermal or power throttle bits
 * are set in the sustained share of its samples since it began to lag is left to the throttle
 * detectors: the slowdown has a known cause. A warning priced by its clock or activity against its
 * peers since the change began.
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
  public List<DetectorInput> inputs() {
    return List.of(
        DetectorInput.of(DcgmField.SM_CLOCK),
        DetectorInput.anyOf(DcgmField.SM_ACTIVE, DcgmField.GPU_UTIL),
        DetectorInput.of(DcgmField.POWER_USAGE));
  }

  @Override
  public String name() {
    return FindingKind.STRAGGLER;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = WindowOptions.windowStart(context.nowMillis(), options.windowSeconds());
    Map<List<Object>, List<ObservedGpu>> groups = new LinkedHashMap<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      groups.computeIfAbsent(List.of(gpu.node(), gpu.model()), k -> new ArrayList<>()).add(gpu);
    }
    List<Condition> conditions = new ArrayList<>();
    for (List<ObservedGpu> group : groups.values()) {
      if (group.size() >= options.minPeers() + 1) {
        judge(context.telemetry(), group, from, conditions);
      }
    }
    return conditions;
  }

  private void judge(
      TelemetryQuery telemetry, List<ObservedGpu> group, long from, List<Condition> out) {
    List<String> metrics = new ArrayList<>(List.of(DcgmField.SM_CLOCK));
    Map<String, SampleWindow[]> windows = new HashMap<>();
    SampleWindow[] util = windows(telemetry, group, DcgmField.GPU_UTIL, from);
    windows.put(DcgmField.GPU_UTIL, util);
    if (options.compareSmActive()) {
      SampleWindow[] smActive = windows(telemetry, group, DcgmField.SM_ACTIVE, from);
      boolean reported = Arrays.stream(smActive).anyMatch(w -> !w.isEmpty());
      windows.put(DcgmField.SM_ACTIVE, smActive);
      metrics.add(reported ? DcgmField.SM_ACTIVE : DcgmField.GPU_UTIL);
    }
    if (options.comparePower()) {
      metrics.add(DcgmField.POWER_USAGE);
    }
    List<SampleWindow[]> compared = new ArrayList<>();
    for (String metric : metrics) {
      compared.add(windows.computeIfAbsent(metric, m -> windows(telemetry, group, m, from)));
    }
    SecondIndex seconds = SecondIndex.of(compared, 4 * options.windowSeconds() + 60);
    boolean[][] busy = new boolean[group.size()][];
    for (int g = 0; g < group.size(); g++) {
      busy[g] = busySeconds(telemetry, group.get(g), util[g], from, seconds);
    }
    Map<String, List<PeerCusum.Result>> byMetric = new LinkedHashMap<>();
    for (String metric : metrics) {
      SampleWindow[] metricWindows = windows.get(metric);
      double[][] tracks = new double[group.size()][];
      for (int g = 0; g < group.size(); g++) {
        tracks[g] = track(metricWindows[g], busy[g], seconds);
      }
      byMetric.put(metric, PeerCusum.run(tracks, seconds, options));
    }
    for (int g = 0; g < group.size(); g++) {
      Map<String, PeerCusum.Result> lagging = new LinkedHashMap<>();
      for (Map.Entry<String, List<PeerCusum.Result>> e : byMetric.entrySet()) {
        PeerCusum.Result r = e.getValue().get(g);
        if (r.statistic() > options.decisionThreshold()) {
          lagging.put(e.getKey(), r);
        }
      }
      if (lagging.isEmpty()) {
        continue;
      }
      ObservedGpu gpu = group.get(g);
      long changeMillis = from;
      for (PeerCusum.Result r : lagging.values()) {
        if (r.changeSecond() >= 0) {
          changeMillis = Math.max(changeMillis, Math.min(r.changeSecond() * 1000L, Long.MAX_VALUE));
        }
      }
      double throttled = throttledShare(telemetry, gpu, changeMillis);
      if (throttled < options.sustainedFraction()) {
        out.add(condition(gpu, group.size() - 1, lagging, throttled));
      }
    }
  }

  private static SampleWindow[] windows(
      TelemetryQuery telemetry, List<ObservedGpu> group, String metric, long from) {
    SampleWindow[] windows = new SampleWindow[group.size()];
    for (int g = 0; g < group.size(); g++) {
      windows[g] = telemetry.window(group.get(g).series(metric), from);
    }
    return windows;
  }

  /**
   * Returns, per second of the window, whether the GPU was busy by its GPU_UTIL sample of that
   * second (the last one if several); a second without a sample is not busy. Without any GPU_UTIL
   * sample, every second is busy if the GPU was busy by its clock-event reasons, else none is.
   */
  private boolean[] busySeconds(
      TelemetryQuery telemetry,
      ObservedGpu gpu,
      SampleWindow util,
      long from,
      SecondIndex seconds) {
    boolean[] busy = new boolean[seconds.size()];
    if (util.isEmpty()) {
      if (Busyness.judge(telemetry, gpu, from, options.busyUtilPercent()).busy()) {
        Arrays.fill(busy, true);
      }
      return busy;
    }
    for (int i = 0; i < util.size(); i++) {
      int t = seconds.indexOf(SecondIndex.second(util.timestamp(i)));
      if (t >= 0) {
        double u = util.value(i);
        busy[t] = Double.isFinite(u) && u >= options.busyUtilPercent();
      }
    }
    return busy;
  }

  /**
   * Returns the GPU's value per second of the window (the last valid one if several), NaN where it
   * was idle or reported nothing valid.
   */
  private static double[] track(SampleWindow window, boolean[] busy, SecondIndex seconds) {
    double[] bySecond = new double[seconds.size()];
    Arrays.fill(bySecond, Double.NaN);
    for (int i = 0; i < window.size(); i++) {
      int t = seconds.indexOf(SecondIndex.second(window.timestamp(i)));
      double v = window.value(i);
      if (t >= 0 && busy[t] && Double.isFinite(v) && v >= 0) {
        bySecond[t] = v;
      }
    }
    return bySecond;
  }

  private static double throttledShare(TelemetryQuery telemetry, ObservedGpu gpu, long from) {
    double[] masks =
        RobustStatistics.finite(telemetry.window(gpu.series(DcgmField.CLOCKS_EVENT_REASONS), from));
    long throttled =
        Arrays.stream(masks).filter(m -> m >= 0 && ((long) m & THROTTLE_BITS) != 0).count();
    return masks.length == 0 ? 0 : (double) throttled / masks.length;
  }

  private Condition condition(
      ObservedGpu gpu, int peers, Map<String, PeerCusum.Result> lagging, double throttled) {
    String metric = lagging.keySet().iterator().next();
    PeerCusum.Result main = lagging.get(metric);
    double factor = 1.0;
    for (Map.Entry<String, PeerCusum.Result> e : lagging.entrySet()) {
      double ratio = e.getValue().ratioSinceChange();
      if (!e.getKey().equals(DcgmField.POWER_USAGE) && Double.isFinite(ratio)) {
        factor = Math.min(factor, ratio);
      }
    }
    factor = Math.max(MIN_FACTOR, Math.min(1.0, factor));
    String model = gpu.model().isEmpty() ? "same-model" : gpu.model();
    Evidence evidence =
        Evidence.of(metric)
            .put("laggingMetrics", String.join(", ", lagging.keySet()))
            .put("peers", peers + " other " + model + " GPUs on " + gpu.node().value())
            .threshold(
                "CUSUM of robust peer z-scores > "
                    + Evidence.number(options.decisionThreshold())
                    + " (allowance "
                    + Evidence.number(options.allowance())
                    + " deviations, deviation floor "
                    + Evidence.percent(options.deviationFloor())
                    + ", z capped at "
                    + Evidence.number(options.zCap())
                    + ")")
            .window(options.windowSeconds())
            .put("throttledSamples", Evidence.percent(throttled))
            .put("performanceFactor", factor);
    lagging.forEach(
        (m, r) ->
            evidence
                .put(shortName(m) + ".cusum", r.statistic())
                .put(shortName(m) + ".lastZ", r.lastZ())
                .put(shortName(m) + ".ratioToPeerMedian", r.ratioSinceChange())
                .put(
                    shortName(m) + ".since",
                    r.changeSecond() < 0
                        ? "window start"
                        : Instant.ofEpochSecond(r.changeSecond()).toString()));
    String summary =
        gpu.describe()
            + " runs slower than its "
            + peers
            + " "
            + model
            + " peers on the node: "
            + shortName(metric)
            + " at "
            + Evidence.percent(main.ratioSinceChange())
            + " of their median since "
            + (main.changeSecond() < 0
                ? "the window began"
                : Instant.ofEpochSecond(main.changeSecond()).toString());
    NodeId node = gpu.node();
    int i = gpu.index();
    String action =
        "Drain "
            + node.value()
            + " and run the DCGM diagnostic on GPU "
            + i
            + " (dcgmi diag -r 3 -i "
            + i
            + "); check its clocks and PCIe link (nvidia-smi -q -d CLOCK,PERFORMANCE,PCIE -i "
            + i
            + "); if it stays slower than its peers, reseat or RMA GPU "
            + i;
    return new Condition(
        FindingKind.STRAGGLER,
        node,
        i,
        Severity.WARNING,
        summary,
        evidence.toMap(),
        action,
        factor);
  }

  private static String shortName(String metric) {
    return switch (metric) {
      case DcgmField.SM_CLOCK -> "smClock";
      case DcgmField.SM_ACTIVE -> "smActive";
      case DcgmField.GPU_UTIL -> "gpuUtil";
      case DcgmField.POWER_USAGE -> "power";
      default -> metric;
    };
  }
}
