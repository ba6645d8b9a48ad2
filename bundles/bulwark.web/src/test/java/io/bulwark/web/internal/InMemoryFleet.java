package io.bulwark.web.internal;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.LifecycleState;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/** In-memory inventory that stands in for the store bundle's FleetRepository in unit tests. */
final class InMemoryFleet implements FleetRepository {
  private final ConcurrentSkipListMap<NodeId, Node> nodes = new ConcurrentSkipListMap<>();

  void put(Node node) {
    nodes.put(node.id(), node);
  }

  @Override
  public List<Node> nodes() {
    return new ArrayList<>(nodes.values());
  }

  @Override
  public Optional<Node> node(NodeId id) {
    return Optional.ofNullable(nodes.get(id));
  }

  @Override
  public Node recordObserved(NodeId id, Collection<Gpu> reported, Instant at) {
    Node existing = nodes.get(id);
    List<Gpu> gpus = new ArrayList<>(existing == null ? List.of() : existing.gpus());
    for (Gpu g : reported) {
      gpus.removeIf(known -> known.index() == g.index());
      gpus.add(g);
    }
    Node node = new Node(id, existing == null ? LifecycleState.DEPLOYED : existing.state(), gpus,
        existing == null ? at : existing.firstSeen(), at);
    nodes.put(id, node);
    return node;
  }

  @Override
  public Node setState(NodeId id, LifecycleState state) {
    Node node = node(id).orElseThrow(() -> new NoSuchElementException(id.value())).withState(state);
    nodes.put(id, node);
    return node;
  }
}
