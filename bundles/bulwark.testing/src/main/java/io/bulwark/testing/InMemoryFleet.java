package io.bulwark.testing;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Test double for the inventory bundle's {@link FleetRepository}: keeps the inventory in memory
 * with the inventory's merge rules (a GPU is never forgotten, GPUs are kept sorted by index) and
 * counts the observations recorded. It stands in for the real store bundle and is used by unit
 * tests only; nothing is written to disk. Thread-safe.
 */
public final class InMemoryFleet implements FleetRepository {
  private final Map<NodeId, Node> nodes = new TreeMap<>();
  private int recordCalls;

  /** Puts {@code node} into the inventory as it is, replacing any node with the same id. */
  public synchronized void put(Node node) {
    nodes.put(node.id(), node);
  }

  /** Returns how many times {@link #recordObserved} has been called. */
  public synchronized int recordCalls() {
    return recordCalls;
  }

  @Override
  public synchronized List<Node> nodes() {
    return List.copyOf(nodes.values());
  }

  @Override
  public synchronized Optional<Node> node(NodeId id) {
    return Optional.ofNullable(nodes.get(id));
  }

  @Override
  public synchronized Node recordObserved(NodeId id, Collection<Gpu> reported, Instant at) {
    recordCalls++;
    Node before = nodes.get(id);
    Map<Integer, Gpu> gpus = new TreeMap<>();
    if (before != null) {
      before.gpus().forEach(g -> gpus.put(g.index(), g));
    }
    reported.forEach(g -> gpus.put(g.index(), g));
    Node after =
        before == null
            ? new Node(id, List.copyOf(gpus.values()), at, at)
            : new Node(id, List.copyOf(gpus.values()), before.firstSeen(), at);
    nodes.put(id, after);
    return after;
  }

  @Override
  public synchronized boolean remove(NodeId id) {
    return nodes.remove(id) != null;
  }
}
