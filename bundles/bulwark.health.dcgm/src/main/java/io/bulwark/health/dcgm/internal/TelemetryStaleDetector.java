package io.bulwark.health.dcgm.internal;

import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.telemetry.SeriesId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Reports nodes whose telemetry target stopped answering: scraped successfully before, but not
 * within the stale time. One node-level warning (GPU -1) instead of a missing-GPU finding per GPU:
 * a silent exporter, network path or powered-off node says nothing about the GPUs, and the
 * missing-GPU detector leaves stale nodes alone. Only nodes expected to run workloads are judged
 * (deployed or allocated in the inventory, or known to telemetry only); a node never scraped since
 * the appliance started is not judged. The performance factor is 1: the capacity account already
 * counts the GPUs of a silent node as not reporting.
 */
@Component(
    service = Detector.class,
    configurationPid = "io.bulwark.health.dcgm.telemetry-stale",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = TelemetryStaleDetectorConfig.class)
public final class TelemetryStaleDetector implements Detector {
  private final int staleAfterSeconds;

  /**
   * @throws IllegalArgumentException if staleAfterSeconds is out of range
   */
  @Activate
  public TelemetryStaleDetector(TelemetryStaleDetectorConfig config) {
    this(config.staleAfterSeconds());
  }

  TelemetryStaleDetector(int staleAfterSeconds) {
    if (staleAfterSeconds < 1 || staleAfterSeconds > 3600) {
      throw new IllegalArgumentException(
          "staleAfterSeconds must be between 1 and 3600, was " + staleAfterSeconds);
    }
    this.staleAfterSeconds = staleAfterSeconds;
  }

  @Override
  public String name() {
    return FindingKind.TELEMETRY_STALE;
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    Map<NodeId, Integer> judged = new TreeMap<>();
    for (NodeId node : context.telemetry().nodes()) {
      judged.put(node, context.telemetry().reportedGpus(node).size());
    }
    for (Node node : context.inventory()) {
      judged.put(node.id(), node.gpus().size());
    }
    long freshFrom = WindowOptions.windowStart(context.nowMillis(), staleAfterSeconds);
    List<Condition> conditions = new ArrayList<>();
    judged.forEach(
        (node, gpus) -> {
          OptionalLong last = context.telemetry().lastScrapeMillis(node);
          if (last.isPresent() && last.getAsLong() < freshFrom) {
            conditions.add(condition(node, gpus, last.getAsLong(), context.nowMillis()));
          }
        });
    return conditions;
  }

  private Condition condition(NodeId node, int gpus, long lastMillis, long nowMillis) {
    long silentSeconds = (nowMillis - lastMillis) / 1000;
    Evidence evidence =
        Evidence.of("last successful scrape")
            .put("values", Instant.ofEpochMilli(lastMillis).toString())
            .put("silentSeconds", silentSeconds)
            .put("gpus", gpus)
            .threshold("a successful scrape within the last " + staleAfterSeconds + " s")
            .window(staleAfterSeconds);
    String name = node.value();
    return new Condition(
        FindingKind.TELEMETRY_STALE,
        node,
        SeriesId.NODE_LEVEL,
        Severity.WARNING,
        "Telemetry of "
            + name
            + " has been silent for "
            + silentSeconds
            + " s: its "
            + gpus
            + " GPU(s) cannot be judged",
        evidence.toMap(),
        "Check that "
            + name
            + " is powered on (BMC) and reachable, and that its dcgm-exporter runs"
            + " (systemctl status dcgm-exporter; curl http://"
            + name
            + ":9400/metrics); see the telemetry targets page for the last scrape error",
        1.0);
  }
}
