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
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports busy GPUs held back by power in a sustained way: SW_POWER_CAP or HW_POWER_BRAKE_SLOWDOWN
 * set in most clock-event samples of the window. A warning: the GPU still serves, at the
 * performance factor its SM clock shows against the fleet (close to 1 when every GPU of the model
 * runs at its cap). Idle GPUs are not judged.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.power-throttle",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = PowerThrottleDetectorConfig.class)
public final class PowerThrottleDetector implements Detector {
  private static final long POWER_BITS =
      ClockEventReason.SW_POWER_CAP.mask() | ClockEventReason.HW_POWER_BRAKE_SLOWDOWN.mask();

  private final ThrottleOptions options;
  private final ThrottleJudge judge;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public PowerThrottleDetector(PowerThrottleDetectorConfig c) {
    this(
        new ThrottleOptions(
            c.windowSeconds(),
            c.sustainedFraction(),
            c.minSeconds(),
            c.busyUtilPercent(),
            c.referenceWindowSeconds()));
  }

  PowerThrottleDetector(ThrottleOptions options) {
    this.options = options;
    this.judge = new ThrottleJudge(options);
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(
        DetectorInput.of(DcgmField.CLOCKS_EVENT_REASONS),
        DetectorInput.of(DcgmField.SM_CLOCK),
        DetectorInput.of(DcgmField.POWER_USAGE),
        DetectorInput.of(DcgmField.POWER_LIMIT));
  }

  @Override
  public String name() {
    return FindingKind.POWER_THROTTLE;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    PeerClocks peers =
        EvaluationMemo.of(context)
            .peers(judge.windowStart(context.nowMillis()), options.busyUtilPercent());
    List<Condition> conditions = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      judge
          .judge(context, gpu, mask -> (mask & POWER_BITS) != 0, DcgmField.POWER_VIOLATION, peers)
          .ifPresent(t -> conditions.add(condition(context, gpu, t)));
    }
    return conditions;
  }

  private Condition condition(DetectionContext context, ObservedGpu gpu, Throttling t) {
    Evidence evidence = t.evidence("SW_POWER_CAP|HW_POWER_BRAKE_SLOWDOWN", options);
    Sample usage = context.telemetry().latest(gpu.series(DcgmField.POWER_USAGE));
    Sample limit = context.telemetry().latest(gpu.series(DcgmField.POWER_LIMIT));
    if (usage != null && Double.isFinite(usage.value())) {
      evidence.put("powerUsageWatts", usage.value());
    }
    if (limit != null && Double.isFinite(limit.value())) {
      evidence.put("powerLimitWatts", limit.value());
    }
    boolean brake = t.reasonsSeen().contains(ClockEventReason.HW_POWER_BRAKE_SLOWDOWN.name());
    String summary =
        gpu.describe()
            + " is held back by "
            + (brake ? "the power brake" : "its power cap")
            + " "
            + t.extent(options.windowSeconds())
            + ", running at "
            + Evidence.percent(t.performanceFactor())
            + " of its reference SM clock";
    String node = gpu.node().value();
    String action =
        brake
            ? "Check the power supplies and the power-brake signal of "
                + node
                + " (BMC event log); drain "
                + node
                + " if a PSU has failed"
            : "Compare the enforced and default power limits of GPU "
                + gpu.index()
                + " on "
                + node
                + " (nvidia-smi -q -d POWER -i "
                + gpu.index()
                + "); restore the default with nvidia-smi -pl if it"
                + " was lowered, else check the node's power budget";
    return new Condition(
        FindingKind.POWER_THROTTLE,
        gpu.node(),
        gpu.index(),
        Severity.WARNING,
        summary,
        evidence.toMap(),
        action,
        t.performanceFactor());
  }
}
