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
 * Reports GPUs with memory pages marked for retirement that only a GPU reset (or driver reload)
 * applies: {@code DCGM_FI_DEV_RETIRED_PENDING} above zero. Page retirement is how GPUs before
 * Ampere fence off failing memory (Ampere and Hopper remap rows instead, see the row-remap
 * detectors). A warning: the GPU serves, but the bad page stays in use until the reset. When the
 * retired pages reach the limit (NVIDIA's diagnostic uses 60), the action adds planning an RMA.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.retired-pages-pending",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = RetiredPagesDetectorConfig.class)
public final class RetiredPagesDetector implements Detector {
  private final WindowOptions window;
  private final int retiredPagesLimit;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public RetiredPagesDetector(RetiredPagesDetectorConfig c) {
    this(new WindowOptions(c.windowSeconds()), c.retiredPagesLimit());
  }

  RetiredPagesDetector(WindowOptions window, int retiredPagesLimit) {
    if (retiredPagesLimit < 1) {
      throw new IllegalArgumentException(
          "retiredPagesLimit must be at least 1, was " + retiredPagesLimit);
    }
    this.window = window;
    this.retiredPagesLimit = retiredPagesLimit;
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(DetectorInput.of(DcgmField.RETIRED_PENDING));
  }

  @Override
  public String name() {
    return FindingKind.RETIRED_PAGES_PENDING;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = window.from(context.nowMillis());
    List<Condition> conditions = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      if (!Flags.raised(context, gpu, DcgmField.RETIRED_PENDING, from)) {
        continue;
      }
      double sbe = Flags.latest(context, gpu, DcgmField.RETIRED_SBE, from);
      double dbe = Flags.latest(context, gpu, DcgmField.RETIRED_DBE, from);
      double retired = (Double.isNaN(sbe) ? 0 : sbe) + (Double.isNaN(dbe) ? 0 : dbe);
      Evidence evidence =
          Evidence.of(DcgmField.RETIRED_PENDING)
              .values(context.telemetry().window(gpu.series(DcgmField.RETIRED_PENDING), from))
              .threshold("> 0 (pages wait for a GPU reset)")
              .window(window.windowSeconds())
              .put("retiredPages", retired)
              .put("retiredPagesLimit", retiredPagesLimit);
      Flags.addLatest(evidence, context, gpu, DcgmField.RETIRED_SBE, "retiredSbePages");
      Flags.addLatest(evidence, context, gpu, DcgmField.RETIRED_DBE, "retiredDbePages");
      int i = gpu.index();
      String node = gpu.node().value();
      String action =
          "Drain "
              + node
              + " when its jobs allow and reset GPU "
              + i
              + " (nvidia-smi -r -i "
              + i
              + ") or reboot the node so the pending pages are retired"
              + (retired >= retiredPagesLimit
                  ? "; GPU "
                      + i
                      + " has "
                      + Evidence.number(retired)
                      + " retired pages, at or above the limit of "
                      + retiredPagesLimit
                      + ": plan its RMA"
                  : "");
      conditions.add(
          new Condition(
              FindingKind.RETIRED_PAGES_PENDING,
              gpu.node(),
              i,
              Severity.WARNING,
              gpu.describe()
                  + " has memory pages waiting to be retired: they stay in use until the GPU is"
                  + " reset",
              evidence.toMap(),
              action,
              1.0));
    }
    return conditions;
  }
}
