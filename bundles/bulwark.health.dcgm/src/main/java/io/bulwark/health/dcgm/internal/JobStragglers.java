package io.bulwark.health.dcgm.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.scheduler.JobPlacement;
import io.bulwark.api.scheduler.SchedulerJob;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds whole nodes that hold a multi-node job back: a node whose GPUs all run slower by the same
 * share (clocks set low, a host that cannot feed them) looks sound to the comparison inside the
 * node, yet every other node of the job waits for it. The nodes of one job that have been in it for
 * the whole window are compared with each other second by second, each by the median of its busy
 * GPUs of one model, with the same robust z-score and CUSUM ({@link PeerCusum}) as the GPUs of a
 * node: on SM clock always, on SM activity (else GPU_UTIL) only once the node has kept pace on it
 * in this job, since the stages of a pipeline-parallel job do unequal work by design. A dip the
 * whole job shares moves the median, not the z-scores. Not judged: jobs on fewer nodes than the
 * minimum, nodes that share jobs, nodes whose GPUs throttle (left to the throttle detectors), a job
 * map older than its age limit, and GPUs with a finding of their own, which are left out of their
 * node's median. Used by the straggler detector, from the engine's thread only.
 */
final class JobStragglers {
  private static final double MIN_FACTOR = 0.05;
  private static final int PEERS_NAMED = 12;

  private final StragglerOptions options;
  private final StragglerOptions jobOptions;
  private final JobTenure tenure = new JobTenure();

  JobStragglers(StragglerOptions options) {
    this.options = options;
    this.jobOptions = options.forJobNodes();
  }

  /** Forgets the jobs seen: no job map is bound. */
  void unbound() {
    tenure.clear();
  }

  /**
   * Returns the node-level conditions that hold now.
   *
   * @param covered GPUs with a finding of their own in this evaluation (a straggler against their
   *     node, or left to the throttle detectors); they do not count in their node's median
   * @param from the start of the window, epoch ms
   */
  List<Condition> judge(
      DetectionContext context, JobPlacement placement, Set<ObservedGpu> covered, long from) {
    List<SchedulerJob> jobs = placement.jobs();
    long readAt = placement.readAtMillis();
    tenure.update(placement, jobs, readAt);
    if (readAt <= 0 || context.nowMillis() - readAt > options.jobMapMaxAgeSeconds() * 1000L) {
      return List.of();
    }
    Map<String, Integer> jobsOnNode = new HashMap<>();
    for (SchedulerJob job : jobs) {
      for (String node : new LinkedHashSet<>(job.nodes())) {
        jobsOnNode.merge(node, 1, Integer::sum);
      }
    }
    Map<String, List<ObservedGpu>> gpusOf = new HashMap<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      if (!covered.contains(gpu)) {
        gpusOf.computeIfAbsent(gpu.node().value(), k -> new ArrayList<>()).add(gpu);
      }
    }
    List<Condition> out = new ArrayList<>();
    for (SchedulerJob job : jobs) {
      Set<String> nodes = new LinkedHashSet<>(job.nodes());
      if (nodes.size() < options.jobMinNodes()) {
        continue;
      }
      Map<String, Map<String, List<ObservedGpu>>> byModel = new LinkedHashMap<>();
      for (String node : nodes) {
        JobTenure.Member member = new JobTenure.Member(job.scheduler(), job.id(), node);
        if (jobsOnNode.get(node) > 1 || tenure.since(member) > from) {
          continue;
        }
        for (ObservedGpu gpu : gpusOf.getOrDefault(node, List.of())) {
          byModel
              .computeIfAbsent(gpu.model(), k -> new LinkedHashMap<>())
              .computeIfAbsent(node, k -> new ArrayList<>())
              .add(gpu);
        }
      }
      for (Map.Entry<String, Map<String, List<ObservedGpu>>> e : byModel.entrySet()) {
        if (e.getValue().size() >= options.jobMinNodes()) {
          new JobComparison(context.telemetry(), job, nodes.size(), e.getKey(), e.getValue())
              .judge(from, readAt, out);
        }
      }
    }
    return out;
  }

  /** The comparison of the nodes of one job that carry GPUs of one model. */
  private final class JobComparison {
    private final TelemetryQuery telemetry;
    private final SchedulerJob job;
    private final int jobNodes;
    private final String model;
    private final List<String> names;
    private final List<List<ObservedGpu>> gpus;

    JobComparison(
        TelemetryQuery telemetry,
        SchedulerJob job,
        int jobNodes,
        String model,
        Map<String, List<ObservedGpu>> gpusByNode) {
      this.telemetry = telemetry;
      this.job = job;
      this.jobNodes = jobNodes;
      this.model = model;
      this.names = List.copyOf(gpusByNode.keySet());
      this.gpus = List.copyOf(gpusByNode.values());
    }

    void judge(long from, long readAt, List<Condition> out) {
      List<ObservedGpu> all = new ArrayList<>();
      gpus.forEach(all::addAll);
      GpuTracks tracks = GpuTracks.read(telemetry, all, from, options, false);
      Map<String, double[][]> nodeTracks = new LinkedHashMap<>();
      Map<String, List<PeerCusum.Result>> results = new LinkedHashMap<>();
      for (String metric : tracks.metrics()) {
        double[][] rows = nodeMedians(tracks.of(metric), tracks.seconds().size());
        nodeTracks.put(metric, rows);
        results.put(metric, PeerCusum.run(rows, tracks.seconds(), jobOptions));
      }
      for (int n = 0; n < names.size(); n++) {
        JobTenure.Member member = new JobTenure.Member(job.scheduler(), job.id(), names.get(n));
        Map<String, PeerCusum.Result> lagging = new LinkedHashMap<>();
        for (Map.Entry<String, List<PeerCusum.Result>> e : results.entrySet()) {
          PeerCusum.Result r = e.getValue().get(n);
          boolean lags = r.lags(options);
          if (!e.getKey().equals(DcgmField.SM_CLOCK)) {
            if (!lags && 2L * r.judged() >= options.windowSeconds()) {
              tenure.markKeptPace(member);
            }
            lags &= tenure.keptPace(member);
          }
          if (lags) {
            lagging.put(e.getKey(), r);
          }
        }
        if (lagging.isEmpty()) {
          continue;
        }
        long changeMillis = from;
        for (PeerCusum.Result r : lagging.values()) {
          if (r.changeSecond() >= 0) {
            changeMillis = Math.max(changeMillis, r.changeSecond() * 1000L);
          }
        }
        double throttled = GpuTracks.throttledShare(telemetry, gpus.get(n), changeMillis);
        if (throttled < options.sustainedFraction()) {
          out.add(condition(n, lagging, nodeTracks, tracks.seconds(), throttled, readAt));
        }
      }
    }

    /**
     * Returns, per node and second, the median of its GPUs' values; NaN where fewer than half of
     * its GPUs were busy and reported (a node winding down or coming up is not judged).
     */
    private double[][] nodeMedians(double[][] gpuRows, int columns) {
      double[][] rows = new double[names.size()][columns];
      double[] scratch = new double[gpuRows.length];
      int first = 0;
      for (int n = 0; n < names.size(); n++) {
        int count = gpus.get(n).size();
        for (int t = 0; t < columns; t++) {
          int present = 0;
          for (int g = first; g < first + count; g++) {
            double v = gpuRows[g][t];
            if (Double.isFinite(v)) {
              scratch[present++] = v;
            }
          }
          rows[n][t] =
              2 * present >= count && present > 0
                  ? RobustStatistics.medianInPlace(scratch, present)
                  : Double.NaN;
        }
        first += count;
      }
      return rows;
    }

    private Condition condition(
        int n,
        Map<String, PeerCusum.Result> lagging,
        Map<String, double[][]> nodeTracks,
        SecondIndex seconds,
        double throttled,
        long readAt) {
      String metric = lagging.keySet().iterator().next();
      PeerCusum.Result main = lagging.get(metric);
      double factor = 1.0;
      for (PeerCusum.Result r : lagging.values()) {
        if (Double.isFinite(r.ratioSinceChange())) {
          factor = Math.min(factor, r.ratioSinceChange());
        }
      }
      factor = Math.max(MIN_FACTOR, Math.min(1.0, factor));
      String node = names.get(n);
      int peers = names.size() - 1;
      String label = model.isEmpty() ? "" : model + " ";
      Evidence evidence =
          Evidence.of(metric)
              .put("laggingMetrics", String.join(", ", lagging.keySet()))
              .put("job", job.id())
              .put("scheduler", job.scheduler())
              .put("jobNodes", jobNodes)
              .put("peers", peers(n))
              .put(
                  "gpus",
                  gpus.get(n).size()
                      + " "
                      + label
                      + "GPUs without a finding of their own, median of the busy ones each second")
              .threshold(
                  "CUSUM of robust z-scores against the job's node median > "
                      + Evidence.number(options.decisionThreshold())
                      + " (allowance "
                      + Evidence.number(options.allowance())
                      + " deviations, deviation floor "
                      + Evidence.percent(options.deviationFloor())
                      + ", z capped at "
                      + Evidence.number(options.zCap())
                      + "); at least "
                      + options.jobMinNodes()
                      + " nodes in the job for the whole window")
              .window(options.windowSeconds())
              .put("jobMapReadAt", Instant.ofEpochMilli(readAt).toString())
              .put("throttledSamples", Evidence.percent(throttled))
              .put("performanceFactor", factor);
      double[] mainValues = null;
      for (Map.Entry<String, PeerCusum.Result> e : lagging.entrySet()) {
        PeerCusum.Result r = e.getValue();
        String key = GpuTracks.shortName(e.getKey());
        double[] values = sinceChange(nodeTracks.get(e.getKey()), n, seconds, r.changeSecond());
        if (mainValues == null) {
          mainValues = values;
        }
        evidence
            .put(key + ".cusum", r.statistic())
            .put(key + ".lastZ", r.lastZ())
            .put(key + ".ratioToJobMedian", r.ratioSinceChange())
            .put(key + ".node", format(e.getKey(), values[0]))
            .put(key + ".jobMedian", format(e.getKey(), values[1]))
            .put(key + ".since", since(r.changeSecond()));
      }
      String summary =
          node
              + " runs "
              + Evidence.percent(1 - factor)
              + " slower than the other "
              + peers
              + " nodes of job "
              + job.id()
              + " ("
              + job.scheduler()
              + "): "
              + words(metric)
              + " "
              + format(metric, mainValues[0])
              + " against the job's median of "
              + format(metric, mainValues[1])
              + " since "
              + (main.changeSecond() < 0
                  ? "the window began"
                  : Instant.ofEpochSecond(main.changeSecond()).toString())
              + "; its GPUs lag together, so none stands out on the node";
      String action =
          "Drain "
              + node
              + " when job "
              + job.id()
              + " can spare it (the whole job waits for it); check what its GPUs share: clock"
              + " settings and power limits (nvidia-smi -q -d CLOCK,POWER,PERFORMANCE), the CPUs"
              + " (frequency governor, thermal throttling), memory and the network adapters (link"
              + " speed and errors: ibstat), then run the DCGM diagnostic on every GPU (dcgmi diag"
              + " -r 3)";
      return new Condition(
          FindingKind.STRAGGLER,
          NodeId.of(node),
          SeriesId.NODE_LEVEL,
          Severity.WARNING,
          summary,
          evidence.toMap(),
          action,
          factor);
    }

    private String peers(int n) {
      List<String> others = new ArrayList<>(names);
      others.remove(n);
      String listed = String.join(", ", others.subList(0, Math.min(PEERS_NAMED, others.size())));
      String more =
          others.size() > PEERS_NAMED ? " and " + (others.size() - PEERS_NAMED) + " more" : "";
      return others.size()
          + " other nodes of job "
          + job.id()
          + " in it for the whole window: "
          + listed
          + more;
    }
  }

  /**
   * Returns the node's median value and the median of the job's per-second medians over the seconds
   * after {@code changeSecond} (all of the window if it is -1), NaN where none was judged.
   */
  private double[] sinceChange(double[][] rows, int n, SecondIndex seconds, long changeSecond) {
    int columns = seconds.size();
    double[] own = new double[columns];
    double[] medians = new double[columns];
    double[] present = new double[rows.length];
    int judged = 0;
    for (int t = 0; t < columns; t++) {
      if (!Double.isFinite(rows[n][t]) || seconds.secondAt(t) <= changeSecond) {
        continue;
      }
      int count = 0;
      for (double[] row : rows) {
        if (Double.isFinite(row[t])) {
          present[count++] = row[t];
        }
      }
      if (count >= options.jobMinNodes()) {
        own[judged] = rows[n][t];
        medians[judged++] = RobustStatistics.medianInPlace(present, count);
      }
    }
    return new double[] {
      RobustStatistics.medianInPlace(own, judged), RobustStatistics.medianInPlace(medians, judged)
    };
  }

  private static String since(long changeSecond) {
    return changeSecond < 0 ? "window start" : Instant.ofEpochSecond(changeSecond).toString();
  }

  private static String format(String metric, double value) {
    if (!Double.isFinite(value)) {
      return "no value";
    }
    return switch (metric) {
      case DcgmField.SM_CLOCK -> Math.round(value) + " MHz";
      case DcgmField.SM_ACTIVE -> Evidence.percent(value);
      case DcgmField.GPU_UTIL -> Math.round(value) + "%";
      default -> Evidence.number(value);
    };
  }

  private static String words(String metric) {
    return switch (metric) {
      case DcgmField.SM_CLOCK -> "median SM clock";
      case DcgmField.SM_ACTIVE -> "median SM activity";
      case DcgmField.GPU_UTIL -> "median GPU utilisation";
      default -> metric;
    };
  }
}
