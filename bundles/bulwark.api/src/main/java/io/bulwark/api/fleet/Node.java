package io.bulwark.api.fleet;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A node of the fleet as the inventory records it: every GPU ever seen installed in it, sorted by
 * index, and when it was first and last seen. The inventory never forgets a GPU because telemetry
 * stopped reporting it: a GPU that is in the inventory but missing from telemetry is a finding, not
 * a smaller node.
 */
public record Node(NodeId id, List<Gpu> gpus, Instant firstSeen, Instant lastSeen) {
  public Node {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(firstSeen, "firstSeen");
    Objects.requireNonNull(lastSeen, "lastSeen");
    gpus = gpus.stream().sorted(Comparator.comparingInt(Gpu::index)).toList();
  }

  /** Returns the GPU with this index, if the inventory holds it. */
  public Optional<Gpu> gpu(int index) {
    return gpus.stream().filter(g -> g.index() == index).findFirst();
  }
}
