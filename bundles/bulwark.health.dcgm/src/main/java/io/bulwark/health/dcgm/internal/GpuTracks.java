package io.bulwark.health.dcgm.internal;

import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The readings the straggler detector compares, second by second, for a list of GPUs over its
 * window: SM clock, SM activity (GPU_UTIL when no GPU of the list exports SM activity) and, when
 * asked, power draw, each as one row per GPU and one column per second, NaN where the GPU was idle
 * or reported nothing valid. Used by the straggler detector for the GPUs of one node and for the
 * GPUs of the nodes of one job.
 */
final class GpuTracks {
  private static final long THROTTLE_BITS =
      ClockEventReason.SW_THERMAL_SLOWDOWN.mask()
          | ClockEventReason.HW_THERMAL_SLOWDOWN.mask()
          | ClockEventReason.SW_POWER_CAP.mask()
          | ClockEventReason.HW_POWER_BRAKE_SLOWDOWN.mask();

  private final Map<String, double[][]> tracks;
  private final SecondIndex seconds;

  private GpuTracks(Map<String, double[][]> tracks, SecondIndex seconds) {
    this.tracks = tracks;
    this.seconds = seconds;
  }

  /**
   * Reads the tracks of {@code gpus} from {@code from}; {@code power} says whether power draw is
   * among them (as well as the options allow).
   */
  static GpuTracks read(
      TelemetryQuery telemetry,
      List<ObservedGpu> gpus,
      long from,
      StragglerOptions options,
      boolean power) {
    List<String> metrics = new ArrayList<>(List.of(DcgmField.SM_CLOCK));
    Map<String, SampleWindow[]> windows = new HashMap<>();
    SampleWindow[] util = windows(telemetry, gpus, DcgmField.GPU_UTIL, from);
    windows.put(DcgmField.GPU_UTIL, util);
    if (options.compareSmActive()) {
      SampleWindow[] smActive = windows(telemetry, gpus, DcgmField.SM_ACTIVE, from);
      boolean reported = Arrays.stream(smActive).anyMatch(w -> !w.isEmpty());
      windows.put(DcgmField.SM_ACTIVE, smActive);
      metrics.add(reported ? DcgmField.SM_ACTIVE : DcgmField.GPU_UTIL);
    }
    if (power && options.comparePower()) {
      metrics.add(DcgmField.POWER_USAGE);
    }
    List<SampleWindow[]> compared = new ArrayList<>();
    for (String metric : metrics) {
      compared.add(windows.computeIfAbsent(metric, m -> windows(telemetry, gpus, m, from)));
    }
    SecondIndex seconds = SecondIndex.of(compared, 4 * options.windowSeconds() + 60);
    boolean[][] busy = new boolean[gpus.size()][];
    for (int g = 0; g < gpus.size(); g++) {
      busy[g] = busySeconds(telemetry, gpus.get(g), util[g], from, seconds, options);
    }
    Map<String, double[][]> tracks = new LinkedHashMap<>();
    for (String metric : metrics) {
      SampleWindow[] metricWindows = windows.get(metric);
      double[][] rows = new double[gpus.size()][];
      for (int g = 0; g < gpus.size(); g++) {
        rows[g] = track(metricWindows[g], busy[g], seconds);
      }
      tracks.put(metric, rows);
    }
    return new GpuTracks(tracks, seconds);
  }

  /** Returns the metrics read, SM clock first, in the order they are compared. */
  List<String> metrics() {
    return List.copyOf(tracks.keySet());
  }

  /** Returns the rows of {@code metric}: one per GPU, in the order of the list read. */
  double[][] of(String metric) {
    return tracks.get(metric);
  }

  /** Returns the seconds the columns stand for. */
  SecondIndex seconds() {
    return seconds;
  }

  /**
   * Returns the share of the busy clock-event samples (GPU_IDLE clear) of {@code gpus} since {@code
   * from} that carry a thermal or power throttle bit, all GPUs pooled; 0 without samples. Idle
   * samples are no evidence either way, as for the throttle detectors: which of them a scrape
   * happens to meet must not decide whether a throttled GPU counts as one.
   */
  static double throttledShare(TelemetryQuery telemetry, List<ObservedGpu> gpus, long from) {
    long samples = 0;
    long throttled = 0;
    for (ObservedGpu gpu : gpus) {
      double[] masks =
          RobustStatistics.finite(
              telemetry.window(gpu.series(DcgmField.CLOCKS_EVENT_REASONS), from));
      for (double m : masks) {
        if (m < 0) {
          continue;
        }
        long mask = (long) m;
        boolean isThrottled = (mask & THROTTLE_BITS) != 0;
        if (!isThrottled && ClockEventReason.GPU_IDLE.isSet(mask)) {
          continue;
        }
        samples++;
        if (isThrottled) {
          throttled++;
        }
      }
    }
    return samples == 0 ? 0 : (double) throttled / samples;
  }

  /** Returns the metric's name in the evidence: smClock, smActive, gpuUtil, power. */
  static String shortName(String metric) {
    return switch (metric) {
      case DcgmField.SM_CLOCK -> "smClock";
      case DcgmField.SM_ACTIVE -> "smActive";
      case DcgmField.GPU_UTIL -> "gpuUtil";
      case DcgmField.POWER_USAGE -> "power";
      default -> metric;
    };
  }

  private static SampleWindow[] windows(
      TelemetryQuery telemetry, List<ObservedGpu> gpus, String metric, long from) {
    SampleWindow[] windows = new SampleWindow[gpus.size()];
    for (int g = 0; g < gpus.size(); g++) {
      windows[g] = telemetry.window(gpus.get(g).series(metric), from);
    }
    return windows;
  }

  /**
   * Returns, per second of the window, whether the GPU was busy by its GPU_UTIL sample of that
   * second (the last one if several); a second without a sample is not busy. Without any GPU_UTIL
   * sample, every second is busy if the GPU was busy by its clock-event reasons, else none is.
   */
  private static boolean[] busySeconds(
      TelemetryQuery telemetry,
      ObservedGpu gpu,
      SampleWindow util,
      long from,
      SecondIndex seconds,
      StragglerOptions options) {
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
}
