package io.bulwark.inventory.internal;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Keeps the inventory in step with what telemetry reports: records a node when it is new, or when
 * it reports a GPU the inventory lacks (a new index, or another UUID or model at a known index).
 * Unchanged nodes cost no write. Used by {@link TelemetryInventory} on every round.
 */
final class InventoryRecorder {
  private static final Logger LOG = System.getLogger(InventoryRecorder.class.getName());

  /** What one round did: the nodes written, those that could not be, and the first error. */
  record Round(int written, int failed, RuntimeException firstError) {}

  private final TelemetryQuery telemetry;
  private final FleetRepository fleet;

  InventoryRecorder(TelemetryQuery telemetry, FleetRepository fleet) {
    this.telemetry = telemetry;
    this.fleet = fleet;
  }

  /** Records what telemetry shows that the inventory lacks. */
  Round record(Instant now) {
    Map<NodeId, Node> known =
        fleet.nodes().stream().collect(Collectors.toMap(Node::id, Function.identity()));
    int written = 0;
    int failed = 0;
    RuntimeException firstError = null;
    for (NodeId id : telemetry.nodes()) {
      List<Gpu> reported = telemetry.reportedGpus(id);
      Node node = known.get(id);
      Optional<String> reason = node == null ? Optional.of("new node") : news(node, reported);
      if (reason.isEmpty()) {
        continue;
      }
      try {
        fleet.recordObserved(id, reported, now);
        written++;
        LOG.log(
            Level.INFO,
            "Inventory: recorded {0} with {1} GPU(s) reported by telemetry ({2})",
            id,
            reported.size(),
            reason.get());
      } catch (RuntimeException e) {
        failed++;
        if (firstError == null) {
          firstError = e;
        }
      }
    }
    return new Round(written, failed, firstError);
  }

  private static Optional<String> news(Node node, List<Gpu> reported) {
    for (Gpu g : reported) {
      Optional<Gpu> known = node.gpu(g.index());
      if (known.isEmpty()) {
        return Optional.of("new GPU " + g.index());
      }
      if (differs(known.get().uuid(), g.uuid()) || differs(known.get().model(), g.model())) {
        return Optional.of(
            "GPU " + g.index() + " now reports UUID " + g.uuid() + ", model " + g.model());
      }
    }
    return Optional.empty();
  }

  private static boolean differs(String known, String reported) {
    return !reported.isEmpty() && !reported.equals(known);
  }
}
