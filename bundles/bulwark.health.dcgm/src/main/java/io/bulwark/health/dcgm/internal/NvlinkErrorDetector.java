package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.DcgmField;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports GPUs whose NVLinks are unhealthy, judged on the rise of dcgm-exporter's error counters
 * (summed over the GPU's links) within the window: CRC flit or data errors at or above the rate
 * DCGM's NVLink health watch deems harmful (100 per second), or any replay or recovery error, which
 * DCGM counts as an NVLink error. Counter resets and glitches are handled by {@link CounterRate}. A
 * warning: replays and retrains stall the collective operations of every job spanning the GPU.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.nvlink-errors",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = NvlinkErrorDetectorConfig.class)
public final class NvlinkErrorDetector implements Detector {
  /** The estimated share of performance a GPU keeps while its NVLinks replay or retrain. */
  static final double PERFORMANCE_FACTOR = 0.9;

  private final CounterWindowOptions options;
  private final long evaluationIntervalMillis;
  private final int replayErrors;
  private final int recoveryErrors;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public NvlinkErrorDetector(NvlinkErrorDetectorConfig c) {
    this(
        new CounterWindowOptions(
            c.windowSeconds(), c.minSpanSeconds(), c.crcErrorsPerSecond(), "crcErrorsPerSecond"),
        c.replayErrors(),
        c.recoveryErrors(),
        Cadence.millis(c.evaluationIntervalSeconds()));
  }

  NvlinkErrorDetector(CounterWindowOptions options, int replayErrors, int recoveryErrors) {
    this(options, replayErrors, recoveryErrors, 0);
  }

  NvlinkErrorDetector(
      CounterWindowOptions options,
      int replayErrors,
      int recoveryErrors,
      long evaluationIntervalMillis) {
    if (replayErrors < 1) {
      throw new IllegalArgumentException("replayErrors must be at least 1, was " + replayErrors);
    }
    if (recoveryErrors < 1) {
      throw new IllegalArgumentException(
          "recoveryErrors must be at least 1, was " + recoveryErrors);
    }
    this.options = options;
    this.evaluationIntervalMillis = evaluationIntervalMillis;
    this.replayErrors = replayErrors;
    this.recoveryErrors = recoveryErrors;
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(
        DetectorInput.anyOf(
            DcgmField.NVLINK_CRC_FLIT_ERRORS,
            DcgmField.NVLINK_CRC_DATA_ERRORS,
            DcgmField.NVLINK_REPLAY_ERRORS,
            DcgmField.NVLINK_RECOVERY_ERRORS));
  }

  @Override
  public long evaluationIntervalMillis() {
    return evaluationIntervalMillis;
  }

  @Override
  public String name() {
    return FindingKind.NVLINK_ERRORS;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = options.from(context.nowMillis());
    List<Condition> conditions = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      CounterRate flit = rate(context, gpu, DcgmField.NVLINK_CRC_FLIT_ERRORS, from);
      CounterRate data = rate(context, gpu, DcgmField.NVLINK_CRC_DATA_ERRORS, from);
      CounterRate replay = rate(context, gpu, DcgmField.NVLINK_REPLAY_ERRORS, from);
      CounterRate recovery = rate(context, gpu, DcgmField.NVLINK_RECOVERY_ERRORS, from);
      List<String> reasons = new ArrayList<>();
      String metric = null;
      if (recovery.increase() >= recoveryErrors) {
        metric = DcgmField.NVLINK_RECOVERY_ERRORS;
        reasons.add(Evidence.number(recovery.increase()) + " recovery error(s) (link retrained)");
      }
      if (replay.increase() >= replayErrors) {
        metric = metric == null ? DcgmField.NVLINK_REPLAY_ERRORS : metric;
        reasons.add(Evidence.number(replay.increase()) + " replay error(s)");
      }
      for (CounterRate crc : List.of(flit, data)) {
        if (crc.spans(options.minSpanSeconds()) && crc.perSecond() >= options.threshold()) {
          metric =
              metric != null
                  ? metric
                  : crc == flit
                      ? DcgmField.NVLINK_CRC_FLIT_ERRORS
                      : DcgmField.NVLINK_CRC_DATA_ERRORS;
          reasons.add(
              Evidence.number(crc.perSecond())
                  + " CRC "
                  + (crc == flit ? "flit" : "data")
                  + " errors/s");
        }
      }
      if (metric == null) {
        continue;
      }
      Evidence evidence =
          Evidence.of(metric)
              .values(context.telemetry().window(gpu.series(metric), from))
              .put("crcFlitErrors", flit.describe())
              .put("crcDataErrors", data.describe())
              .put("replayErrors", replay.describe())
              .put("recoveryErrors", recovery.describe())
              .threshold(
                  ">= "
                      + Evidence.number(options.threshold())
                      + " CRC errors/s, or >= "
                      + replayErrors
                      + " replay or >= "
                      + recoveryErrors
                      + " recovery error(s) within the window")
              .window(options.windowSeconds());
      int i = gpu.index();
      String node = gpu.node().value();
      conditions.add(
          new Condition(
              FindingKind.NVLINK_ERRORS,
              gpu.node(),
              i,
              Severity.WARNING,
              "NVLink errors on " + gpu.describe() + ": " + String.join(", ", reasons),
              evidence.toMap(),
              "Find the failing link with nvidia-smi nvlink -e -i "
                  + i
                  + " and check the fabric manager log on "
                  + node
                  + "; at the next drain reset GPU "
                  + i
                  + " and run dcgmi diag -r 3; if the errors return on the same link, reseat the"
                  + " GPU or its NVLink bridge/baseboard, else RMA",
              PERFORMANCE_FACTOR));
    }
    return conditions;
  }

  private static CounterRate rate(
      DetectionContext context, ObservedGpu gpu, String metric, long from) {
    return CounterRate.of(context.telemetry(), gpu.series(metric), from);
  }
}
