package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.DetectorInput;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.SampleWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports XID errors: {@code DCGM_FI_DEV_XID_ERRORS} holds the last XID code of a GPU (0 for none),
 * and any non-zero code seen within the hold time raises a condition whose severity and action
 * follow the bucket of NVIDIA's XID catalogue ({@link XidCatalog}, {@link XidBucket}): a restart, a
 * GPU reset or a reset workflow is critical (the GPU does not serve until then); a code after which
 * the GPU still serves but needs a person (report it to NVIDIA, update, check) and a code not in
 * the catalogue are warnings; the application's codes (NVIDIA's RESTART_APP, and 13, 31, 43, 45 by
 * default) blame the job, not the GPU: they raise nothing unless configured to be recorded, then as
 * information; codes NVIDIA says to ignore raise nothing. One scrape showing a code is enough. When
 * several codes were seen, the most disruptive (then the latest) is reported and all are listed.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.xid",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = XidDetectorConfig.class)
public final class XidDetector implements Detector {
  private final XidOptions options;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public XidDetector(XidDetectorConfig config) {
    this(XidOptions.from(config));
  }

  XidDetector(XidOptions options) {
    this.options = options;
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(DetectorInput.of(DcgmField.XID_ERRORS));
  }

  @Override
  public String name() {
    return FindingKind.XID;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = WindowOptions.windowStart(context.nowMillis(), options.holdSeconds());
    List<Condition> conditions = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      SampleWindow window = context.telemetry().window(gpu.series(DcgmField.XID_ERRORS), from);
      Seen worst = null;
      Set<Integer> codes = new LinkedHashSet<>();
      for (int i = 0; i < window.size(); i++) {
        int code = codeOf(window.value(i));
        if (code == 0) {
          continue;
        }
        codes.add(code);
        XidResolution resolution = options.resolve(code);
        if (resolution == XidResolution.IGNORED
            || (resolution == XidResolution.APPLICATION && !options.recordApplicationXids())) {
          continue;
        }
        Seen seen = new Seen(code, resolution, window.timestamp(i));
        if (worst == null || seen.resolution.compareTo(worst.resolution) <= 0) {
          worst = seen;
        }
      }
      if (worst != null) {
        conditions.add(condition(gpu, worst, codes, window));
      }
    }
    return conditions;
  }

  private Condition condition(
      ObservedGpu gpu, Seen worst, Set<Integer> codes, SampleWindow window) {
    String meaning = XidCatalog.meaning(worst.code);
    String summary =
        "XID "
            + worst.code
            + " on "
            + gpu.describe()
            + ": "
            + meaning
            + " ("
            + worst.resolution.label()
            + ")";
    Evidence evidence =
        Evidence.of(DcgmField.XID_ERRORS)
            .put("code", String.valueOf(worst.code))
            .put("meaning", meaning)
            .put("class", worst.resolution.label())
            .put("codesSeen", codes.stream().map(String::valueOf).collect(Collectors.joining(", ")))
            .put("seenAt", Instant.ofEpochMilli(worst.atMillis).toString())
            .values(window)
            .put("resolution", worst.resolution.name())
            .threshold("any non-zero XID code (application XIDs only when recorded)")
            .window(options.holdSeconds());
    XidCatalog.entry(worst.code)
        .ifPresent(
            e ->
                evidence
                    .put("nvidiaAction", e.bucket().name())
                    .put("nvidiaActionWords", e.bucket().words())
                    .put("nvidiaFatal", String.valueOf(e.fatal())));
    if (!gpu.uuid().isEmpty()) {
      evidence.put("uuid", gpu.uuid());
    }
    return new Condition(
        FindingKind.XID,
        gpu.node(),
        gpu.index(),
        worst.resolution.severity(),
        summary,
        evidence.toMap(),
        XidActions.of(gpu, worst.code, worst.resolution),
        1.0);
  }

  private static int codeOf(double value) {
    if (!Double.isFinite(value)
        || value < 1
        || value > Integer.MAX_VALUE
        || value != Math.rint(value)) {
      return 0;
    }
    return (int) value;
  }

  private record Seen(int code, XidResolution resolution, long atMillis) {}
}
