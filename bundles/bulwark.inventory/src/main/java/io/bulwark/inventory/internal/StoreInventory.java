package io.bulwark.inventory.internal;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.store.RecordMap;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.StoreMap;
import io.bulwark.api.store.WritePriority;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The inventory of nodes and their GPUs, in the store's map {@code nodes}: a GPU is never forgotten
 * because telemetry stopped reporting it (that is a finding, not a smaller node), and a UUID or
 * model that a later report gives replaces the one known. Every write is one transaction.
 */
@Component(service = FleetRepository.class)
public final class StoreInventory implements FleetRepository {
  static final StoreMap<String, Node> NODES = StoreMap.byName("nodes", NodeFormat.INSTANCE);

  private final RecordStore store;

  @Activate
  public StoreInventory(@Reference RecordStore store) {
    this.store = store;
  }

  @Override
  public List<Node> nodes() {
    return store.read(
        s -> {
          List<Node> all = new ArrayList<>();
          for (Map.Entry<String, Node> e : s.map(NODES).entries()) {
            all.add(e.getValue());
          }
          all.sort(Comparator.comparing(Node::id));
          return all;
        });
  }

  @Override
  public Optional<Node> node(NodeId id) {
    return Optional.ofNullable(store.read(s -> s.map(NODES).get(id.value())));
  }

  @Override
  public Node recordObserved(NodeId id, Collection<Gpu> reported, Instant at) {
    return store.write(
        "record node " + id,
        WritePriority.ROUTINE,
        s -> {
          RecordMap<String, Node> nodes = s.map(NODES);
          Node existing = nodes.get(id.value());
          TreeMap<Integer, Gpu> gpus = new TreeMap<>();
          if (existing != null) {
            existing.gpus().forEach(g -> gpus.put(g.index(), g));
          }
          for (Gpu gpu : reported) {
            Gpu known = gpus.get(gpu.index());
            gpus.put(gpu.index(), known == null ? gpu : merge(known, gpu));
          }
          Node updated =
              new Node(
                  id, List.copyOf(gpus.values()), existing == null ? at : existing.firstSeen(), at);
          nodes.put(id.value(), updated);
          return updated;
        });
  }

  private static Gpu merge(Gpu known, Gpu seen) {
    return new Gpu(
        known.index(),
        seen.uuid().isEmpty() ? known.uuid() : seen.uuid(),
        seen.model().isEmpty() ? known.model() : seen.model());
  }

  @Override
  public boolean remove(NodeId id) {
    if (store.read(s -> !s.map(NODES).contains(id.value()))) {
      return false;
    }
    return store.write(
        "remove node " + id, WritePriority.ROUTINE, s -> s.map(NODES).remove(id.value()));
  }
}
