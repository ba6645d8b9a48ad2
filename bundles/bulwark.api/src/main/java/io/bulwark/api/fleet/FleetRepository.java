package io.bulwark.api.fleet;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The persistent inventory of nodes and GPUs. Provided by the inventory bundle (which also records
 * what telemetry reports); used by the health engine and by the web API. Every method is
 * thread-safe; a write is durable when it returns.
 */
@ProviderType
public interface FleetRepository {

  /** Returns every node, sorted by id. Never null. */
  List<Node> nodes();

  /** Returns the node with this id, or empty. */
  Optional<Node> node(NodeId id);

  /**
   * Records that telemetry saw these GPUs on the node at {@code at}: creates the node if it is new,
   * adds GPUs not yet known, refreshes UUID and model of known ones, and never removes a GPU.
   * Returns the node as stored.
   */
  Node recordObserved(NodeId id, Collection<Gpu> reported, Instant at);

  /**
   * Removes a node from the inventory, e.g. one an exporter invented. Telemetry that still reports
   * the node records it again.
   *
   * @return true if the node was in the inventory
   * @since 1.1
   */
  boolean remove(NodeId id);
}
