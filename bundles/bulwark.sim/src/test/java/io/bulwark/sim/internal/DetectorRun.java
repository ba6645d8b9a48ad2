package io.bulwark.sim.internal;

import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.health.dcgm.internal.EccDetector;
import io.bulwark.health.dcgm.internal.EccDetectorConfig;
import io.bulwark.health.dcgm.internal.GpuMissingDetector;
import io.bulwark.health.dcgm.internal.GpuMissingDetectorConfig;
import io.bulwark.health.dcgm.internal.NvlinkErrorDetector;
import io.bulwark.health.dcgm.internal.NvlinkErrorDetectorConfig;
import io.bulwark.health.dcgm.internal.PcieLinkDetector;
import io.bulwark.health.dcgm.internal.PcieLinkDetectorConfig;
import io.bulwark.health.dcgm.internal.PcieReplayDetector;
import io.bulwark.health.dcgm.internal.PcieReplayDetectorConfig;
import io.bulwark.health.dcgm.internal.PowerThrottleDetector;
import io.bulwark.health.dcgm.internal.PowerThrottleDetectorConfig;
import io.bulwark.health.dcgm.internal.RetiredPagesDetector;
import io.bulwark.health.dcgm.internal.RetiredPagesDetectorConfig;
import io.bulwark.health.dcgm.internal.RowRemapDetector;
import io.bulwark.health.dcgm.internal.RowRemapDetectorConfig;
import io.bulwark.health.dcgm.internal.RowRemapPendingDetector;
import io.bulwark.health.dcgm.internal.RowRemapPendingDetectorConfig;
import io.bulwark.health.dcgm.internal.SbeRateDetector;
import io.bulwark.health.dcgm.internal.SbeRateDetectorConfig;
import io.bulwark.health.dcgm.internal.StragglerDetector;
import io.bulwark.health.dcgm.internal.StragglerDetectorConfig;
import io.bulwark.health.dcgm.internal.TelemetryStaleDetector;
import io.bulwark.health.dcgm.internal.TelemetryStaleDetectorConfig;
import io.bulwark.health.dcgm.internal.ThermalMarginDetector;
import io.bulwark.health.dcgm.internal.ThermalMarginDetectorConfig;
import io.bulwark.health.dcgm.internal.ThermalThrottleDetector;
import io.bulwark.health.dcgm.internal.ThermalThrottleDetectorConfig;
import io.bulwark.health.dcgm.internal.XidDetector;
import io.bulwark.health.dcgm.internal.XidDetectorConfig;
import io.bulwark.testing.TypedConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Runs the real detectors of bulwark.health.dcgm, with their default settings, over a simulated
 * fleet on a virtual clock: every second each node that answers is scraped (a silenced node is
 * not), every {@link #EVALUATION_MILLIS} the detectors judge what was scraped, as the demo role's
 * telemetry and health engine do. Records when each condition (kind, node, GPU) was first reported.
 */
final class DetectorRun {
  static final long SCRAPE_MILLIS = 1_000;
  static final long EVALUATION_MILLIS = 2_000;

  /** Where and what a detector reported. */
  record Seen(String kind, String node, int gpu) {}

  private final SimulatedFleet fleet;
  private final ScrapedTelemetry telemetry;
  private final List<Detector> detectors = defaultDetectors();
  private final Map<Seen, Long> firstSeen = new LinkedHashMap<>();

  DetectorRun(SimulatedFleet fleet, int seconds) {
    this.fleet = fleet;
    this.telemetry = new ScrapedTelemetry(seconds + 1);
  }

  /** Returns one detector of every built-in kind, each built with its configuration defaults. */
  static List<Detector> defaultDetectors() {
    return List.of(
        new XidDetector(TypedConfig.defaults(XidDetectorConfig.class)),
        new EccDetector(TypedConfig.defaults(EccDetectorConfig.class)),
        new SbeRateDetector(TypedConfig.defaults(SbeRateDetectorConfig.class)),
        new RetiredPagesDetector(TypedConfig.defaults(RetiredPagesDetectorConfig.class)),
        new RowRemapPendingDetector(TypedConfig.defaults(RowRemapPendingDetectorConfig.class)),
        new RowRemapDetector(TypedConfig.defaults(RowRemapDetectorConfig.class)),
        new NvlinkErrorDetector(TypedConfig.defaults(NvlinkErrorDetectorConfig.class)),
        new PcieReplayDetector(TypedConfig.defaults(PcieReplayDetectorConfig.class)),
        new PcieLinkDetector(TypedConfig.defaults(PcieLinkDetectorConfig.class)),
        new ThermalThrottleDetector(TypedConfig.defaults(ThermalThrottleDetectorConfig.class)),
        new PowerThrottleDetector(TypedConfig.defaults(PowerThrottleDetectorConfig.class)),
        new ThermalMarginDetector(TypedConfig.defaults(ThermalMarginDetectorConfig.class)),
        new StragglerDetector(TypedConfig.defaults(StragglerDetectorConfig.class)),
        new GpuMissingDetector(TypedConfig.defaults(GpuMissingDetectorConfig.class)),
        new TelemetryStaleDetector(TypedConfig.defaults(TelemetryStaleDetectorConfig.class)));
  }

  List<Detector> detectors() {
    return detectors;
  }

  /** Returns every metric a detector read during the run. */
  Set<String> metricsRead() {
    return telemetry.asked();
  }

  /**
   * Runs {@code seconds} seconds from {@code startMillis}, calling {@code eachSecond} at the start
   * of every second (before the scrape) so a test can inject or delete faults.
   */
  void run(long startMillis, int seconds, LongConsumer eachSecond) {
    for (int s = 0; s < seconds; s++) {
      long now = startMillis + s * SCRAPE_MILLIS;
      eachSecond.accept(now);
      for (String node : fleet.nodes()) {
        if (fleet.silence(node, now).isEmpty()) {
          telemetry.scraped(NodeId.of(node), fleet.page(node, now).orElseThrow(), now);
        }
      }
      if ((now - startMillis) % EVALUATION_MILLIS == 0) {
        evaluate(now);
      }
    }
  }

  private void evaluate(long now) {
    List<Node> inventory = telemetry.inventory(now);
    DetectionContext context =
        new DetectionContext() {
          @Override
          public TelemetryQuery telemetry() {
            return telemetry;
          }

          @Override
          public List<Node> inventory() {
            return inventory;
          }

          @Override
          public long nowMillis() {
            return now;
          }
        };
    for (Detector detector : detectors) {
      for (Condition c : detector.evaluate(context)) {
        firstSeen.putIfAbsent(new Seen(c.kind(), c.node().value(), c.gpu()), now);
      }
    }
  }

  /** Returns every condition reported, with when it was first reported, in that order. */
  Map<Seen, Long> seen() {
    return firstSeen;
  }
}
