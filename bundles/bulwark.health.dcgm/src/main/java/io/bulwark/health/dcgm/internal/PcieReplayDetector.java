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
 * Reports GPUs whose PCIe link replays packets faster than the threshold: the rise of {@code
 * DCGM_FI_DEV_PCIE_REPLAY_COUNTER} per minute, averaged over the window (DCGM's hardware limits
 * recommend at most 8 per minute). A replay is a packet the link had to resend after a bit error: a
 * high rate points at a marginal slot, riser or retimer. A warning: the retries cost host-transfer
 * bandwidth.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.pcie-replay",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = PcieReplayDetectorConfig.class)
public final class PcieReplayDetector implements Detector {
  /** The estimated share of performance a GPU keeps while its PCIe link keeps replaying. */
  static final double PERFORMANCE_FACTOR = 0.95;

  private final CounterWindowOptions options;
  private final long evaluationIntervalMillis;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public PcieReplayDetector(PcieReplayDetectorConfig c) {
    this(
        new CounterWindowOptions(
            c.windowSeconds(), c.minSpanSeconds(), c.replaysPerMinute(), "replaysPerMinute"),
        Cadence.millis(c.evaluationIntervalSeconds()));
  }

  PcieReplayDetector(CounterWindowOptions options) {
    this(options, 0);
  }

  PcieReplayDetector(CounterWindowOptions options, long evaluationIntervalMillis) {
    this.options = options;
    this.evaluationIntervalMillis = evaluationIntervalMillis;
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(DetectorInput.of(DcgmField.PCIE_REPLAY_COUNTER));
  }

  @Override
  public long evaluationIntervalMillis() {
    return evaluationIntervalMillis;
  }

  @Override
  public String name() {
    return FindingKind.PCIE_REPLAY;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = options.from(context.nowMillis());
    List<Condition> conditions = new ArrayList<>();
    for (ObservedGpu gpu : ObservedGpu.all(context)) {
      SampleWindow window =
          context.telemetry().window(gpu.series(DcgmField.PCIE_REPLAY_COUNTER), from);
      CounterRate rate =
          CounterRate.of(context.telemetry(), gpu.series(DcgmField.PCIE_REPLAY_COUNTER), from);
      if (!rate.spans(options.minSpanSeconds()) || rate.perMinute() < options.threshold()) {
        continue;
      }
      Evidence evidence =
          Evidence.of(DcgmField.PCIE_REPLAY_COUNTER)
              .values(window)
              .put("replaysPerMinute", rate.perMinute())
              .put("rise", rate.describe())
              .threshold(">= " + Evidence.number(options.threshold()) + " replays per minute")
              .window(options.windowSeconds());
      int i = gpu.index();
      String node = gpu.node().value();
      conditions.add(
          new Condition(
              FindingKind.PCIE_REPLAY,
              gpu.node(),
              i,
              Severity.WARNING,
              gpu.describe()
                  + " replays "
                  + Evidence.number(rate.perMinute())
                  + " PCIe packets per minute (threshold "
                  + Evidence.number(options.threshold())
                  + "): its link has bit errors",
              evidence.toMap(),
              "Check the PCIe link of GPU "
                  + i
                  + " on "
                  + node
                  + " (nvidia-smi -q -d PCIE -i "
                  + i
                  + ", lspci -vv for AER errors); at the next drain reseat the GPU and its riser or"
                  + " cable and run dcgmi diag -r 2; if replays continue, service the slot or RMA",
              PERFORMANCE_FACTOR));
    }
    return conditions;
  }
}
