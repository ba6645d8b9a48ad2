package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.SampleWindow;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports GPUs whose corrected (single-bit) ECC errors arrive faster than the threshold, averaged
 * over the window: the volatile counter {@code DCGM_FI_DEV_ECC_SBE_VOL_TOTAL}, or the aggregate
 * {@code DCGM_FI_DEV_ECC_SBE_AGG_TOTAL} when the volatile one is not exported. Corrected errors do
 * not hurt results, but a rising rate is how failing memory announces itself (NVIDIA's XID 92 says
 * the same); a GPU reset clears the volatile counter, which is a reset, not a negative rate. A
 * warning that costs no performance.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.ecc-sbe-rate",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = SbeRateDetectorConfig.class)
public final class SbeRateDetector implements Detector {
  private final CounterWindowOptions options;
  private final long evaluationIntervalMillis;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public SbeRateDetector(SbeRateDetectorConfig c) {
    this(
        new CounterWindowOptions(
            c.windowSeconds(), c.minSpanSeconds(), c.errorsPerMinute(), "errorsPerMinute"),
        Cadence.millis(c.evaluationIntervalSeconds()));
  }

  SbeRateDetector(CounterWindowOptions options) {
    this(options, 0);
  }

  SbeRateDetector(CounterWindowOptions options, long evaluationIntervalMillis) {
    this.options = options;
    this.evaluationIntervalMillis = evaluationIntervalMillis;
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(DetectorInput.anyOf(DcgmField.ECC_SBE_VOL_TOTAL, DcgmField.ECC_SBE_AGG_TOTAL));
  }

  @Override
  public long evaluationIntervalMillis() {
    return evaluationIntervalMillis;
  }

  @Override
  public String name() {
    return FindingKind.ECC_SBE_RATE;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = options.from(context.nowMillis());
    List<Condition> conditions = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      String metric = DcgmField.ECC_SBE_VOL_TOTAL;
      SampleWindow window = context.telemetry().window(gpu.series(metric), from);
      if (window.isEmpty()) {
        metric = DcgmField.ECC_SBE_AGG_TOTAL;
        window = context.telemetry().window(gpu.series(metric), from);
      }
      CounterRate rate = CounterRate.of(context.telemetry(), gpu.series(metric), from);
      if (!rate.spans(options.minSpanSeconds()) || rate.perMinute() < options.threshold()) {
        continue;
      }
      conditions.add(condition(gpu, metric, window, rate));
    }
    return conditions;
  }

  private Condition condition(
      ObservedGpu gpu, String metric, SampleWindow window, CounterRate rate) {
    Evidence evidence =
        Evidence.of(metric)
            .values(window)
            .put("errorsPerMinute", rate.perMinute())
            .put("rise", rate.describe())
            .threshold(
                ">= " + Evidence.number(options.threshold()) + " corrected errors per minute")
            .window(options.windowSeconds());
    String summary =
        gpu.describe()
            + " corrects "
            + Evidence.number(rate.perMinute())
            + " single-bit ECC errors per minute (threshold "
            + Evidence.number(options.threshold())
            + "): its memory is wearing";
    int i = gpu.index();
    String action =
        "Keep "
            + gpu.node().value()
            + " in service but watch GPU "
            + i
            + " for double-bit errors and pending row remaps (nvidia-smi -q -d ECC,ROW_REMAPPER -i "
            + i
            + "); at the next drain reset it and run dcgmi diag -r 3; if the rate stays high, plan"
            + " its replacement";
    return new Condition(
        FindingKind.ECC_SBE_RATE,
        gpu.node(),
        i,
        Severity.WARNING,
        summary,
        evidence.toMap(),
        action,
        1.0);
  }
}
