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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports GPUs whose PCIe link trained below what it should run at. Width: {@code
 * DCGM_FI_DEV_PCIE_LINK_WIDTH} below {@code DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH} in the sustained share
 * of the window, busy or not (the width does not downshift to save power). Generation: links drop
 * to a lower generation when idle, and a platform may support less than the GPU, so {@code
 * DCGM_FI_DEV_PCIE_LINK_GEN} below {@code DCGM_FI_DEV_PCIE_MAX_LINK_GEN} counts only while the GPU
 * is busy and a busy GPU of the same model on the same node runs at a higher generation. A warning:
 * host transfers run slower.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.pcie-downtrained",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = PcieLinkDetectorConfig.class)
public final class PcieLinkDetector implements Detector {
  /** The estimated share of performance a GPU keeps behind a downtrained link. */
  static final double PERFORMANCE_FACTOR = 0.9;

  private final PcieLinkOptions options;
  private final long evaluationIntervalMillis;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   */
  @Activate
  public PcieLinkDetector(PcieLinkDetectorConfig config) {
    this(PcieLinkOptions.from(config), Cadence.millis(config.evaluationIntervalSeconds()));
  }

  PcieLinkDetector(PcieLinkOptions options) {
    this(options, 0);
  }

  PcieLinkDetector(PcieLinkOptions options, long evaluationIntervalMillis) {
    this.options = options;
    this.evaluationIntervalMillis = evaluationIntervalMillis;
  }

  @Override
  public List<DetectorInput> inputs() {
    return List.of(
        DetectorInput.of(DcgmField.PCIE_LINK_GEN), DetectorInput.of(DcgmField.PCIE_LINK_WIDTH));
  }

  @Override
  public long evaluationIntervalMillis() {
    return evaluationIntervalMillis;
  }

  @Override
  public String name() {
    return FindingKind.PCIE_DOWNTRAINED;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    long from = WindowOptions.windowStart(context.nowMillis(), options.windowSeconds());
    List<ObservedGpu> gpus = ObservedGpu.all(context);
    List<Link> links = new ArrayList<>();
    for (ObservedGpu gpu : gpus) {
      SampleWindow widthWindow =
          context.telemetry().window(gpu.series(DcgmField.PCIE_LINK_WIDTH), from);
      double[] width = positive(widthWindow);
      double[] gen =
          positive(context.telemetry().window(gpu.series(DcgmField.PCIE_LINK_GEN), from));
      double spacing = Coverage.spacingSeconds(widthWindow);
      boolean busy =
          EvaluationMemo.of(context).busyness(gpu, from, options.busyUtilPercent()).busy();
      links.add(
          new Link(
              gpu,
              width,
              Flags.latest(context, gpu, DcgmField.PCIE_MAX_LINK_WIDTH, from),
              gen,
              Flags.latest(context, gpu, DcgmField.PCIE_MAX_LINK_GEN, from),
              busy,
              spacing));
    }
    Map<List<Object>, List<Link>> groups = new HashMap<>();
    for (Link link : links) {
      groups
          .computeIfAbsent(List.of(link.gpu.node(), link.gpu.model()), k -> new ArrayList<>())
          .add(link);
    }
    List<Condition> conditions = new ArrayList<>();
    for (Link link : links) {
      double widthShare = shareBelow(link.width, link.maxWidth);
      if (covers(link.width.length, link.spacing) && widthShare >= options.sustainedFraction()) {
        conditions.add(condition(context, link, true, widthShare, Double.NaN, from));
        continue;
      }
      if (!link.busy || !covers(link.gen.length, link.spacing)) {
        continue;
      }
      double genShare = shareBelow(link.gen, link.maxGen);
      double peerGen = highestPeerGen(link, groups.get(List.of(link.gpu.node(), link.gpu.model())));
      double gen = RobustStatistics.median(link.gen);
      if (genShare >= options.sustainedFraction() && peerGen > gen) {
        conditions.add(condition(context, link, false, genShare, peerGen, from));
      }
    }
    return conditions;
  }

  private Condition condition(
      DetectionContext context, Link link, boolean width, double share, double peerGen, long from) {
    ObservedGpu gpu = link.gpu;
    String metric = width ? DcgmField.PCIE_LINK_WIDTH : DcgmField.PCIE_LINK_GEN;
    double now = RobustStatistics.median(width ? link.width : link.gen);
    double max = width ? link.maxWidth : link.maxGen;
    Evidence evidence =
        Evidence.of(metric)
            .values(context.telemetry().window(gpu.series(metric), from))
            .put("maxLinkWidth", link.maxWidth)
            .put("maxLinkGen", link.maxGen)
            .put("samplesBelowMax", Evidence.percent(share))
            .threshold(
                (width ? "width below the maximum" : "generation below the maximum while busy")
                    + " in >= "
                    + Evidence.percent(options.sustainedFraction())
                    + " of samples covering at least "
                    + options.minSeconds()
                    + " s")
            .window(options.windowSeconds());
    if (!width) {
      evidence.put("highestBusyPeerGen", peerGen);
    }
    String what =
        width
            ? "x" + Evidence.number(now) + " instead of x" + Evidence.number(max)
            : "Gen"
                + Evidence.number(now)
                + " instead of Gen"
                + Evidence.number(max)
                + " while its busy peers reach Gen"
                + Evidence.number(peerGen);
    int i = gpu.index();
    return new Condition(
        FindingKind.PCIE_DOWNTRAINED,
        gpu.node(),
        i,
        Severity.WARNING,
        "PCIe link of " + gpu.describe() + " trained at " + what,
        evidence.toMap(),
        "Confirm with nvidia-smi -q -d PCIE -i "
            + i
            + " on "
            + gpu.node().value()
            + " (and lspci -vv: LnkSta against LnkCap); at the next drain reseat GPU "
            + i
            + " and its riser or cable and check the slot's BIOS link settings; if it trains low"
            + " again, service the slot or RMA the GPU",
        PERFORMANCE_FACTOR);
  }

  /** Returns the highest link generation among the other busy GPUs of the node and model. */
  private static double highestPeerGen(Link link, List<Link> sameNodeAndModel) {
    double highest = Double.NaN;
    for (Link peer : sameNodeAndModel) {
      if (peer == link || !peer.busy) {
        continue;
      }
      double gen = RobustStatistics.median(peer.gen);
      if (Double.isFinite(gen) && !(gen <= highest)) {
        highest = gen;
      }
    }
    return highest;
  }

  private static double shareBelow(double[] values, double max) {
    if (values.length == 0 || !(max > 0)) {
      return 0;
    }
    long below = java.util.Arrays.stream(values).filter(v -> v < max).count();
    return (double) below / values.length;
  }

  private static double[] positive(SampleWindow window) {
    return java.util.Arrays.stream(RobustStatistics.finite(window)).filter(v -> v > 0).toArray();
  }

  /** Returns true if {@code samples} samples {@code spacing} seconds apart cover minSeconds. */
  private boolean covers(int samples, double spacing) {
    return samples >= 2 && samples * spacing >= options.minSeconds() - 1e-9;
  }

  private record Link(
      ObservedGpu gpu,
      double[] width,
      double maxWidth,
      double[] gen,
      double maxGen,
      boolean busy,
      double spacing) {}
}
