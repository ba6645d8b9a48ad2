package io.bulwark.health.internal;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.LifecycleState;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Internal test double of the inventory for the engine tests: keeps nodes in memory with the store's merge rules
 * (never forgets a GPU) and counts the writes.
 */
final class InMemoryFleet implements FleetRepository {
  private final Map<NodeId, Node> nodes = new TreeMap<>();
  int recordCalls;

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
    Node after = before == null
        ? new Node(id, LifecycleState.DEPLOYED, List.copyOf(gpus.values()), at, at)
        : new Node(id, before.state(), List.copyOf(gpus.values()), before.firstSeen(), at);
    nodes.put(id, after);
    return after;
  }

  @Override
  public synchronized Node setState(NodeId id, LifecycleState state) {
    Node n = nodes.get(id);
    if (n == null) {
      throw new NoSuchElementException(id.value());
    }
    Node changed = n.withState(state);
    nodes.put(id, changed);
    return changed;
  }
}
