package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.Sample;
import io.bulwark.api.telemetry.SampleWindow;
import java.util.ArrayList;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports GPUs whose memory could not remap a failing row ({@code DCGM_FI_DEV_ROW_REMAP_FAILURE}
 * above zero): the memory can no longer repair itself and the GPU is critical. The evidence adds
 * the pending-remap flag and the count of rows remapped for uncorrectable errors when telemetry has
 * them.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.row-remap-failure",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = RowRemapDetectorConfig.class)
public final class RowRemapDetector implements Detector {
  private final WindowOptions options;

  /**
   * @throws IllegalArgumentException if windowSeconds is out of range
   */
  @Activate
  public RowRemapDetector(RowRemapDetectorConfig config) {
    this(new WindowOptions(config.windowSeconds()));
  }

  RowRemapDetector(WindowOptions options) {
    this.options = options;
  }

  @Override
  public String name() {
    return FindingKind.ROW_REMAP_FAILURE;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = options.from(context.nowMillis());
    List<Condition> conditions = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      SampleWindow failures =
          context.telemetry().window(gpu.series(DcgmField.ROW_REMAP_FAILURE), from);
      double latest = failures.latestValue();
      if (!(Double.isFinite(latest) && latest > 0)) {
        continue;
      }
      Evidence evidence =
          Evidence.of(DcgmField.ROW_REMAP_FAILURE)
              .values(failures)
              .threshold("> 0")
              .window(options.windowSeconds());
      addLatest(evidence, context, gpu, DcgmField.ROW_REMAP_PENDING, "remapPending");
      addLatest(
          evidence,
          context,
          gpu,
          DcgmField.UNCORRECTABLE_REMAPPED_ROWS,
          "uncorrectableRemappedRows");
      String summary =
          "Row remapping failed on "
              + gpu.describe()
              + ": its memory can no longer replace"
              + " failing rows";
      String action =
          "Drain "
              + gpu.node().value()
              + " and RMA GPU "
              + gpu.index()
              + ": row remapping failed"
              + " (confirm with nvidia-smi -q -d ROW_REMAPPER -i "
              + gpu.index()
              + ")";
      conditions.add(
          new Condition(
              FindingKind.ROW_REMAP_FAILURE,
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

  private static void addLatest(
      Evidence evidence, DetectionContext context, ObservedGpu gpu, String metric, String key) {
    Sample s = context.telemetry().latest(gpu.series(metric));
    if (s != null && Double.isFinite(s.value())) {
      evidence.put(key, s.value());
    }
  }
}
