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
 * Reports GPUs whose memory can no longer repair itself. Critical: the memory could not remap a
 * failing row ({@code DCGM_FI_DEV_ROW_REMAP_FAILURE} above zero), which NVIDIA treats as grounds
 * for an RMA. Warning: the spare-row histogram shows memory banks with few or no spare rows left
 * ({@code DCGM_FI_DEV_BANKS_REMAP_ROWS_AVAIL_LOW} or {@code _NONE} above zero), so the next failing
 * row in such a bank cannot be remapped: plan the replacement. The evidence adds the pending-remap
 * flag and the remapped row counts when telemetry has them.
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
  public List<DetectorInput> inputs() {
    return List.of(DetectorInput.of(DcgmField.ROW_REMAP_FAILURE));
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
      boolean failed = Flags.raised(context, gpu, DcgmField.ROW_REMAP_FAILURE, from);
      double none = Flags.latest(context, gpu, DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE, from);
      double low = Flags.latest(context, gpu, DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW, from);
      boolean exhausted = none > 0 || low > 0;
      if (!failed && !exhausted) {
        continue;
      }
      String metric =
          failed
              ? DcgmField.ROW_REMAP_FAILURE
              : none > 0
                  ? DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE
                  : DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW;
      Evidence evidence =
          Evidence.of(metric)
              .values(context.telemetry().window(gpu.series(metric), from))
              .threshold(
                  failed
                      ? "> 0"
                      : "> 0 banks with no or few spare rows (histogram low/none buckets)")
              .window(options.windowSeconds());
      Flags.addLatest(evidence, context, gpu, DcgmField.ROW_REMAP_PENDING, "remapPending");
      Flags.addLatest(
          evidence,
          context,
          gpu,
          DcgmField.UNCORRECTABLE_REMAPPED_ROWS,
          "uncorrectableRemappedRows");
      Flags.addLatest(
          evidence, context, gpu, DcgmField.BANKS_REMAP_ROWS_AVAIL_NONE, "banksWithNoSpareRows");
      Flags.addLatest(
          evidence, context, gpu, DcgmField.BANKS_REMAP_ROWS_AVAIL_LOW, "banksWithFewSpareRows");
      conditions.add(failed ? failure(gpu, evidence) : exhausted(gpu, evidence, none, low));
    }
    return conditions;
  }

  private static Condition failure(ObservedGpu gpu, Evidence evidence) {
    String action =
        "Drain "
            + gpu.node().value()
            + " and RMA GPU "
            + gpu.index()
            + ": row remapping failed"
            + " (confirm with nvidia-smi -q -d ROW_REMAPPER -i "
            + gpu.index()
            + ")";
    return new Condition(
        FindingKind.ROW_REMAP_FAILURE,
        gpu.node(),
        gpu.index(),
        Severity.CRITICAL,
        "Row remapping failed on "
            + gpu.describe()
            + ": its memory can no longer replace failing rows",
        evidence.toMap(),
        action,
        1.0);
  }

  private static Condition exhausted(ObservedGpu gpu, Evidence evidence, double none, double low) {
    String banks =
        none > 0
            ? Evidence.number(none) + " memory bank(s) without a spare row"
            : Evidence.number(low) + " memory bank(s) low on spare rows";
    String action =
        "Plan the replacement of GPU "
            + gpu.index()
            + " on "
            + gpu.node().value()
            + ": the next failing row in an exhausted bank cannot be remapped (check nvidia-smi -q -d"
            + " ROW_REMAPPER -i "
            + gpu.index()
            + "); open an RMA case before it fails";
    return new Condition(
        FindingKind.ROW_REMAP_FAILURE,
        gpu.node(),
        gpu.index(),
        Severity.WARNING,
        gpu.describe() + " is running out of spare memory rows: " + banks,
        evidence.toMap(),
        action,
        1.0);
  }
}
