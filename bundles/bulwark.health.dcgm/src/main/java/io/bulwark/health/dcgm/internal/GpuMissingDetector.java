package io.bulwark.health.dcgm.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports GPUs that fell off the bus or that the driver lost: for every inventory node scraped
 * successfully within the freshness window, each inventory GPU its latest scrape did not report is
 * critical. Nodes not scraped recently are left alone: an unreachable node is not a missing GPU.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.gpu-missing",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = GpuMissingDetectorConfig.class)
public final class GpuMissingDetector implements Detector {
  private final int scrapeFreshSeconds;

  /**
   * @throws IllegalArgumentException if scrapeFreshSeconds is out of range
   */
  @Activate
  public GpuMissingDetector(GpuMissingDetectorConfig config) {
    this(config.scrapeFreshSeconds());
  }

  GpuMissingDetector(int scrapeFreshSeconds) {
    if (scrapeFreshSeconds < 1 || scrapeFreshSeconds > 3600) {
      throw new IllegalArgumentException(
          "scrapeFreshSeconds must be between 1 and 3600, was " + scrapeFreshSeconds);
    }
    this.scrapeFreshSeconds = scrapeFreshSeconds;
  }

  @Override
  public String name() {
    return FindingKind.GPU_MISSING;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    TelemetryQuery telemetry = context.telemetry();
    long freshFrom = WindowOptions.windowStart(context.nowMillis(), scrapeFreshSeconds);
    List<Condition> conditions = new ArrayList<>();
    for (Node node : context.inventory()) {
      OptionalLong lastScrape = telemetry.lastScrapeMillis(node.id());
      if (lastScrape.isEmpty() || lastScrape.getAsLong() < freshFrom) {
        continue;
      }
      List<Gpu> reportedGpus = telemetry.reportedGpus(node.id());
      Set<Integer> reported = reportedGpus.stream().map(Gpu::index).collect(Collectors.toSet());
      for (Gpu gpu : node.gpus()) {
        if (!reported.contains(gpu.index())) {
          conditions.add(condition(node, gpu, reportedGpus, lastScrape.getAsLong()));
        }
      }
    }
    return conditions;
  }

  private Condition condition(Node node, Gpu gpu, List<Gpu> reported, long lastScrapeMillis) {
    String name = node.id().value();
    int i = gpu.index();
    Evidence evidence =
        Evidence.of("reported GPUs")
            .put(
                "values",
                reported.stream()
                    .map(g -> String.valueOf(g.index()))
                    .collect(Collectors.joining(", ", "[", "]")))
            .put(
                "expected",
                node.gpus().stream()
                    .map(g -> String.valueOf(g.index()))
                    .collect(Collectors.joining(", ", "[", "]")))
            .threshold("every GPU of the inventory reported by a node scraped within the window")
            .window(scrapeFreshSeconds)
            .put("lastScrape", Instant.ofEpochMilli(lastScrapeMillis).toString());
    if (!gpu.uuid().isEmpty()) {
      evidence.put("uuid", gpu.uuid());
    }
    if (!gpu.model().isEmpty()) {
      evidence.put("model", gpu.model());
    }
    String summary =
        "GPU "
            + i
            + " of "
            + name
            + " is missing from telemetry ("
            + reported.size()
            + " of "
            + node.gpus().size()
            + " GPUs reported): fallen off the bus or lost by the driver";
    String action =
        "Drain "
            + name
            + " and check nvidia-smi and the kernel log there (dmesg | grep -i -e xid"
            + " -e nvrm); if GPU "
            + i
            + (gpu.uuid().isEmpty() ? "" : " (" + gpu.uuid() + ")")
            + " is not listed,"
            + " power-cycle the node; if it stays missing, re-seat or RMA it";
    return new Condition(
        FindingKind.GPU_MISSING,
        node.id(),
        i,
        Severity.CRITICAL,
        summary,
        evidence.toMap(),
        action,
        1.0);
  }
}
