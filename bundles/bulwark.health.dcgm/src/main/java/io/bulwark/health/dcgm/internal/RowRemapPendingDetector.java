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
 * Reports GPUs whose memory marked a failing row for remapping that the next GPU reset applies:
 * {@code DCGM_FI_DEV_ROW_REMAP_PENDING} above zero (NVIDIA's XID 63 on Ampere and Hopper). Running
 * jobs are not affected and new ones may start, so it is a warning at full performance; the row is
 * only replaced once the GPU is reset. A failed remap is the row-remap-failure detector's.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.row-remap-pending",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = RowRemapPendingDetectorConfig.class)
public final class RowRemapPendingDetector implements Detector {
  private final WindowOptions options;

  /**
   * @throws IllegalArgumentException if windowSeconds is out of range
   */
  @Activate
  public RowRemapPendingDetector(RowRemapPendingDetectorConfig config) {
    this(new WindowOptions(config.windowSeconds()));
  }

  RowRemapPendingDetector(WindowOptions options) {
    this.options = options;
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(DetectorInput.of(DcgmField.ROW_REMAP_PENDING));
  }

  @Override
  public String name() {
    return FindingKind.ROW_REMAP_PENDING;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = options.from(context.nowMillis());
    List<Condition> conditions = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      if (!Flags.raised(context, gpu, DcgmField.ROW_REMAP_PENDING, from)) {
        continue;
      }
      Evidence evidence =
          Evidence.of(DcgmField.ROW_REMAP_PENDING)
              .values(context.telemetry().window(gpu.series(DcgmField.ROW_REMAP_PENDING), from))
              .threshold("> 0 (a remap waits for a GPU reset)")
              .window(options.windowSeconds());
      Flags.addLatest(
          evidence,
          context,
          gpu,
          DcgmField.UNCORRECTABLE_REMAPPED_ROWS,
          "uncorrectableRemappedRows");
      Flags.addLatest(
          evidence, context, gpu, DcgmField.CORRECTABLE_REMAPPED_ROWS, "correctableRemappedRows");
      int i = gpu.index();
      String action =
          "Let the running jobs on "
              + gpu.node().value()
              + " finish, then drain it and reset GPU "
              + i
              + " (nvidia-smi -r -i "
              + i
              + ") so the remap takes effect; confirm with nvidia-smi -q -d ROW_REMAPPER -i "
              + i;
      conditions.add(
          new Condition(
              FindingKind.ROW_REMAP_PENDING,
              gpu.node(),
              i,
              Severity.WARNING,
              gpu.describe()
                  + " has a memory row remap pending: it takes effect at the next GPU reset",
              evidence.toMap(),
              action,
              1.0));
    }
    return conditions;
  }
}
