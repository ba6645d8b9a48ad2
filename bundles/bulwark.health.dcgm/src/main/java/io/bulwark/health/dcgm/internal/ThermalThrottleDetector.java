package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.ClockEventReason;
import io.bulwark.api.telemetry.DcgmField;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports busy GPUs that slow down for heat in a sustained way: SW_THERMAL_SLOWDOWN or
 * HW_THERMAL_SLOWDOWN (or HW_SLOWDOWN while the GPU runs hot) set in most clock-event samples of
 * the window. A warning: the GPU still serves, at the performance factor its SM clock shows against
 * the fleet. Idle GPUs are not judged.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.thermal-throttle",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = ThermalThrottleDetectorConfig.class)
public final class ThermalThrottleDetector implements Detector {
  private static final long THERMAL_BITS =
      ClockEventReason.SW_THERMAL_SLOWDOWN.mask() | ClockEventReason.HW_THERMAL_SLOWDOWN.mask();

  private final ThermalThrottleOptions options;
  private final ThrottleJudge judge;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public ThermalThrottleDetector(ThermalThrottleDetectorConfig config) {
    this(ThermalThrottleOptions.from(config));
  }

  ThermalThrottleDetector(ThermalThrottleOptions options) {
    this.options = options;
    this.judge = new ThrottleJudge(options.throttle());
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(
        DetectorInput.of(DcgmField.CLOCKS_EVENT_REASONS),
        DetectorInput.of(DcgmField.SM_CLOCK),
        DetectorInput.of(DcgmField.GPU_TEMP));
  }

  @Override
  public String name() {
    return FindingKind.THERMAL_THROTTLE;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = judge.windowStart(context.nowMillis());
    PeerClocks peers = EvaluationMemo.of(context).peers(from, options.throttle().busyUtilPercent());
    List<Condition> conditions = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      // The temperature is read only for a GPU whose clocks show HW_SLOWDOWN or that is throttled:
      // most GPUs are neither.
      double[] temperature = {Double.NaN};
      boolean[] read = {false};
      Optional<Throttling> throttling =
          judge.judge(
              context,
              gpu,
              mask ->
                  (mask & THERMAL_BITS) != 0
                      || (ClockEventReason.HW_SLOWDOWN.isSet(mask)
                          && hot(context, gpu, from, temperature, read)),
              DcgmField.THERMAL_VIOLATION,
              peers);
      if (throttling.isPresent()) {
        hot(context, gpu, from, temperature, read);
        conditions.add(condition(gpu, throttling.get(), temperature[0]));
      }
    }
    return conditions;
  }

  /**
   * Returns true if the GPU's median temperature over the window is at the hot mark; reads it into
   * {@code temperature[0]} the first time only.
   */
  private boolean hot(
      DetectionContext context, ObservedGpu gpu, long from, double[] temperature, boolean[] read) {
    if (!read[0]) {
      read[0] = true;
      temperature[0] =
          RobustStatistics.median(
              RobustStatistics.finite(
                  context.telemetry().window(gpu.series(DcgmField.GPU_TEMP), from)));
    }
    return temperature[0] >= options.hotTemperatureCelsius();
  }

  private Condition condition(ObservedGpu gpu, Throttling t, double temperature) {
    Evidence evidence =
        t.evidence(
            "SW_THERMAL_SLOWDOWN|HW_THERMAL_SLOWDOWN (or HW_SLOWDOWN at >= "
                + Evidence.number(options.hotTemperatureCelsius())
                + " °C)",
            options.throttle());
    if (Double.isFinite(temperature)) {
      evidence.put("medianGpuTempCelsius", temperature);
    }
    String summary =
        gpu.describe()
            + " slows down for heat "
            + t.extent(options.throttle().windowSeconds())
            + (Double.isFinite(temperature) ? " at " + Evidence.number(temperature) + " °C" : "")
            + ", running at "
            + Evidence.percent(t.performanceFactor())
            + " of its reference SM clock";
    String node = gpu.node().value();
    String action =
        "Check the cooling of "
            + node
            + ": fans, inlet air temperature and blocked airflow around GPU "
            + gpu.index()
            + " (nvidia-smi -q -d TEMPERATURE,PERFORMANCE -i "
            + gpu.index()
            + "); if it stays hot"
            + " with sound airflow, drain "
            + node
            + " to re-seat the heatsink of GPU "
            + gpu.index();
    return new Condition(
        FindingKind.THERMAL_THROTTLE,
        gpu.node(),
        gpu.index(),
        Severity.WARNING,
        summary,
        evidence.toMap(),
        action,
        t.performanceFactor());
  }
}
