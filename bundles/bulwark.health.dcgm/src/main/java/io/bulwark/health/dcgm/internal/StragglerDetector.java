package io.bulwark.health.dcgm.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.scheduler.JobPlacement;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Finds fail-slow GPUs that ordinary tools call healthy. The GPUs of one model on one node do the
 * same work, so each is compared with them second by second on SM clock, SM activity (GPU_UTIL when
 * SM activity is not exported) and power draw, with a robust z-score and a CUSUM change-point test
 * ({@link PeerCusum}): a sustained shortfall accumulates (a 10 % slower GPU is caught in about 10 s
 * at one sample a second) while short noise does not, and a stall shorter than the minimum lag (10
 * s), however deep, is not a straggler. A whole node slowing down together is no GPU straggler, and
 * idle GPUs are neither judged nor peers. A GPU whose thermal or power throttle bits are set in the
 * sustained share of its samples since it began to lag is left to the throttle detectors: the
 * slowdown has a known cause. A warning priced by its clock or activity against its peers since the
 * change began.
 *
 * <p>With a job map ({@link JobPlacement}, optional), the nodes of each multi-node job are also
 * compared with each other ({@link JobStragglers}): a whole node that runs slow, which its own GPUs
 * cannot show, is a node-level straggler (GPU -1). Without one, only GPUs are compared.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.straggler",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = StragglerDetectorConfig.class)
public final class StragglerDetector implements Detector {
  /** Seconds beyond the window a group's remembered columns have room for. */
  private static final int COLUMN_SLACK = 16;

  private static final double MIN_FACTOR = 0.05;

  private final StragglerOptions options;
  private final JobStragglers jobs;
  private final AtomicReference<JobPlacement> jobPlacement = new AtomicReference<>();
  private final long evaluationIntervalMillis;

  /**
   * The peer medians and spreads of each node group's seconds, by metric, remembered from the
   * previous evaluation (only the groups evaluated then): see {@link PeerColumns}. Used on the
   * engine thread.
   */
  private Map<List<Object>, Map<String, PeerColumns>> columns = new HashMap<>();

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public StragglerDetector(StragglerDetectorConfig config) {
    this(StragglerOptions.from(config), Cadence.millis(config.evaluationIntervalSeconds()));
  }

  StragglerDetector(StragglerOptions options) {
    this(options, 0);
  }

  StragglerDetector(StragglerOptions options, long evaluationIntervalMillis) {
    this.options = options;
    this.evaluationIntervalMillis = evaluationIntervalMillis;
    this.jobs = new JobStragglers(options);
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(
        DetectorInput.of(DcgmField.SM_CLOCK),
        DetectorInput.anyOf(DcgmField.SM_ACTIVE, DcgmField.GPU_UTIL),
        DetectorInput.of(DcgmField.POWER_USAGE));
  }

  @Override
  public long evaluationIntervalMillis() {
    return evaluationIntervalMillis;
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
    Set<ObservedGpu> covered = new HashSet<>();
    Map<List<Object>, Map<String, PeerColumns>> seen = new HashMap<>();
    for (Map.Entry<List<Object>, List<ObservedGpu>> group : groups.entrySet()) {
      if (group.getValue().size() >= options.minPeers() + 1) {
        Map<String, PeerColumns> remembered = columns.getOrDefault(group.getKey(), new HashMap<>());
        seen.put(group.getKey(), remembered);
        judge(context.telemetry(), group.getValue(), from, conditions, covered, remembered);
      }
    }
    columns = seen;
    JobPlacement placement = jobPlacement.get();
    if (placement == null || !options.compareJobNodes()) {
      jobs.unbound();
    } else {
      conditions.addAll(jobs.judge(context, placement, covered, from));
    }
    return conditions;
  }

  /** Binds the job map: from now on the nodes of each multi-node job are compared too. */
  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindJobPlacement")
  void bindJobPlacement(JobPlacement placement) {
    jobPlacement.set(placement);
  }

  /** Unbinds the job map, unless another was bound in its place meanwhile. */
  void unbindJobPlacement(JobPlacement placement) {
    jobPlacement.compareAndSet(placement, null);
  }

  private void judge(
      TelemetryQuery telemetry,
      List<ObservedGpu> group,
      long from,
      List<Condition> out,
      Set<ObservedGpu> covered,
      Map<String, PeerColumns> remembered) {
    GpuTracks tracks = GpuTracks.read(telemetry, group, from, options, true);
    Map<String, List<PeerCusum.Result>> byMetric = new LinkedHashMap<>();
    for (String metric : tracks.metrics()) {
      PeerColumns peerColumns =
          remembered.computeIfAbsent(
              metric, m -> new PeerColumns(options.windowSeconds() + COLUMN_SLACK));
      byMetric.put(
          metric, PeerCusum.run(tracks.of(metric), tracks.seconds(), options, peerColumns));
    }
    for (int g = 0; g < group.size(); g++) {
      Map<String, PeerCusum.Result> lagging = new LinkedHashMap<>();
      for (Map.Entry<String, List<PeerCusum.Result>> e : byMetric.entrySet()) {
        PeerCusum.Result r = e.getValue().get(g);
        if (r.lags(options)) {
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
      covered.add(gpu);
      double throttled = GpuTracks.throttledShare(telemetry, List.of(gpu), changeMillis);
      if (throttled < options.sustainedFraction()) {
        out.add(condition(gpu, group.size() - 1, lagging, throttled));
      }
    }
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
                .put(GpuTracks.shortName(m) + ".cusum", r.statistic())
                .put(GpuTracks.shortName(m) + ".lastZ", r.lastZ())
                .put(GpuTracks.shortName(m) + ".ratioToPeerMedian", r.ratioSinceChange())
                .put(
                    GpuTracks.shortName(m) + ".since",
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
            + GpuTracks.shortName(metric)
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
}
