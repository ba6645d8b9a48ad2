package io.bulwark.health.dcgm.internal;

import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
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
 * and any non-zero code seen within the hold time raises a condition. Hardware XIDs (double-bit
 * ECC, row remapping, NVLink, fallen off the bus, GSP errors...) are critical: the GPU is bad.
 * Application XIDs (13, 31, 43, 45...) are informational and leave the GPU healthy; codes in
 * neither list are warnings. When several codes were seen, the worst class (then the latest code)
 * is reported and all codes are listed in the evidence.
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
        Seen seen = new Seen(code, options.classify(code), window.timestamp(i));
        if (worst == null || seen.xidClass.compareTo(worst.xidClass) <= 0) {
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
            + worst.xidClass.label()
            + (worst.xidClass == XidClass.HARDWARE ? ", GPU faulty)" : ")");
    Evidence evidence =
        Evidence.of(DcgmField.XID_ERRORS)
            .put("code", String.valueOf(worst.code))
            .put("meaning", meaning)
            .put("class", worst.xidClass.label())
            .put("codesSeen", codes.stream().map(String::valueOf).collect(Collectors.joining(", ")))
            .put("seenAt", Instant.ofEpochMilli(worst.atMillis).toString())
            .values(window)
            .threshold("any non-zero XID code")
            .window(options.holdSeconds());
    if (!gpu.uuid().isEmpty()) {
      evidence.put("uuid", gpu.uuid());
    }
    return new Condition(
        FindingKind.XID,
        gpu.node(),
        gpu.index(),
        worst.xidClass.severity(),
        summary,
        evidence.toMap(),
        action(gpu, worst),
        1.0);
  }

  private static String action(ObservedGpu gpu, Seen seen) {
    String node = gpu.node().value();
    int i = gpu.index();
    return switch (seen.xidClass) {
      case HARDWARE ->
          switch (seen.code) {
            case 79 ->
                "Drain "
                    + node
                    + " and power-cycle it (a reboot is not enough); if GPU "
                    + i
                    + " is still missing from nvidia-smi, re-seat or RMA it";
            case 74 ->
                "Drain "
                    + node
                    + ", check the NVLinks of GPU "
                    + i
                    + " (nvidia-smi nvlink -s -i "
                    + i
                    + ") and the fabric manager log, then run the DCGM diagnostic (dcgmi diag -r 3); if XID 74 repeats,"
                    + " re-seat or RMA GPU "
                    + i;
            default ->
                "Drain "
                    + node
                    + " and run the DCGM diagnostic (dcgmi diag -r 3); if XID "
                    + seen.code
                    + " repeats, re-seat or RMA GPU "
                    + i;
          };
      case APPLICATION ->
          "No action on the GPU: XID "
              + seen.code
              + " points at the job that ran on GPU "
              + i
              + " of "
              + node
              + "; tell its owner to check the job's log";
      case UNKNOWN ->
          "Look up XID "
              + seen.code
              + " in NVIDIA's XID documentation and check the kernel log on "
              + node
              + " (dmesg | grep -i xid); if it repeats, drain "
              + node
              + " and run dcgmi diag -r 3";
    };
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

  private record Seen(int code, XidClass xidClass, long atMillis) {}
}
