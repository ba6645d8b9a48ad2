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
 * Reports uncorrectable memory errors: a GPU whose volatile double-bit ECC counter ({@code
 * DCGM_FI_DEV_ECC_DBE_VOL_TOTAL}, errors since the driver loaded) is above zero, or whose aggregate
 * counter rose within the window, is critical. A GPU reset clears the volatile counter, and with it
 * the condition.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.ecc-dbe",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = EccDetectorConfig.class)
public final class EccDetector implements Detector {
  private final WindowOptions options;

  /**
   * @throws IllegalArgumentException if windowSeconds is out of range
   */
  @Activate
  public EccDetector(EccDetectorConfig config) {
    this(new WindowOptions(config.windowSeconds()));
  }

  EccDetector(WindowOptions options) {
    this.options = options;
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(DetectorInput.anyOf(DcgmField.ECC_DBE_VOL_TOTAL, DcgmField.ECC_DBE_AGG_TOTAL));
  }

  @Override
  public String name() {
    return FindingKind.ECC_DBE;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = options.from(context.nowMillis());
    List<Condition> conditions = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      SampleWindow volatileCount =
          context.telemetry().window(gpu.series(DcgmField.ECC_DBE_VOL_TOTAL), from);
      SampleWindow aggregate =
          context.telemetry().window(gpu.series(DcgmField.ECC_DBE_AGG_TOTAL), from);
      double errors = volatileCount.latestValue();
      double rise = rise(aggregate);
      boolean present = Double.isFinite(errors) && errors > 0;
      if (!present && !(rise > 0)) {
        continue;
      }
      String node = gpu.node().value();
      String summary =
          present
              ? Evidence.number(errors)
                  + " uncorrectable (double-bit) ECC error(s) on "
                  + gpu.describe()
                  + " since the driver loaded"
              : "Uncorrectable (double-bit) ECC errors rose by "
                  + Evidence.number(rise)
                  + " on "
                  + gpu.describe();
      Evidence evidence =
          Evidence.of(present ? DcgmField.ECC_DBE_VOL_TOTAL : DcgmField.ECC_DBE_AGG_TOTAL)
              .values(present ? volatileCount : aggregate)
              .threshold(
                  present
                      ? "> 0 errors since the driver loaded"
                      : "any rise of the aggregate counter")
              .window(options.windowSeconds());
      if (Double.isFinite(errors)) {
        evidence.put("volatileErrors", errors);
      }
      if (Double.isFinite(rise)) {
        evidence.put("aggregateRise", rise);
      }
      String action =
          "Drain "
              + node
              + ", reset GPU "
              + gpu.index()
              + " (nvidia-smi -r -i "
              + gpu.index()
              + ") so the driver retires the failing pages or remaps their rows, then run the DCGM diagnostic"
              + " (dcgmi diag -r 3); if double-bit errors come back, RMA GPU "
              + gpu.index();
      conditions.add(
          new Condition(
              FindingKind.ECC_DBE,
              gpu.node(),
              gpu.index(),
              Severity.CRITICAL,
              summary,
              evidence.toMap(),
              action,
              1.0));
    }
    return conditions;
  }

  private static double rise(SampleWindow window) {
    double[] values = RobustStatistics.finite(window);
    return values.length < 2 ? Double.NaN : values[values.length - 1] - values[0];
  }
}
