package io.bulwark.inventory.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.store.StoreUnavailableException;
import io.bulwark.testing.InMemoryFleet;
import io.bulwark.testing.InMemoryTelemetry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The inventory is fed from telemetry: a node or a GPU is written when it is new, not on every
 * round; a GPU telemetry stops reporting stays in the inventory; a round the store refuses is
 * retried on the next one.
 */
class TelemetryInventoryTest {
  private static final long T0 = 1_764_496_800_000L;
  private final InMemoryTelemetry telemetry = new InMemoryTelemetry();
  private final InMemoryFleet fleet = new InMemoryFleet();
  private final Clock clock = Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC);

  @Test
  void aNodeOrAGpuIsWrittenWhenItIsNewAndNotOnEveryRound() {
    TelemetryInventory feed =
        new TelemetryInventory(new InventoryRecorder(telemetry, fleet), clock);
    telemetry.report("gpu-node-007", 8, "H100", T0);
    assertThat(feed.round().written()).isEqualTo(1);
    feed.round();
    feed.round();
    assertThat(fleet.recordCalls()).isEqualTo(1);
    assertThat(fleet.nodes()).singleElement().satisfies(n -> assertThat(n.gpus()).hasSize(8));

    telemetry.report("gpu-node-007", 9, "H100", T0);
    feed.round();
    feed.round();
    assertThat(fleet.recordCalls()).isEqualTo(2);

    telemetry.report("gpu-node-007", 7, "H100", T0);
    assertThat(feed.round().written()).isZero();
    assertThat(fleet.nodes().get(0).gpus()).as("a GPU is never forgotten").hasSize(9);
  }

  @Test
  void aGpuThatReportsAnotherUuidIsRecorded() {
    TelemetryInventory feed =
        new TelemetryInventory(new InventoryRecorder(telemetry, fleet), clock);
    NodeId node = NodeId.of("gpu-node-003");
    telemetry.report(node, List.of(new Gpu(0, "GPU-old", "H100")), T0);
    feed.round();
    telemetry.report(node, List.of(new Gpu(0, "GPU-new", "H100")), T0);
    assertThat(feed.round().written()).isEqualTo(1);
    assertThat(fleet.node(node).orElseThrow().gpu(0).orElseThrow().uuid()).isEqualTo("GPU-new");
  }

  @Test
  void aRoundTheStoreRefusesIsRetriedOnTheNextOne() {
    Refusing refusing = new Refusing(fleet);
    TelemetryInventory feed =
        new TelemetryInventory(new InventoryRecorder(telemetry, refusing), clock);
    telemetry.report("gpu-node-001", 2, "H100", T0);
    telemetry.report("gpu-node-002", 2, "H100", T0);

    refusing.refuse = true;
    InventoryRecorder.Round refused = feed.round();
    assertThat(refused.failed()).isEqualTo(2);
    assertThat(refused.firstError()).isInstanceOf(StoreUnavailableException.class);
    assertThat(fleet.nodes()).isEmpty();

    refusing.refuse = false;
    assertThat(feed.round().written()).isEqualTo(2);
    assertThat(fleet.nodes()).hasSize(2);
  }

  /** The inventory, refusing writes as the store does when its disk is full. */
  private static final class Refusing implements FleetRepository {
    private final FleetRepository inner;
    volatile boolean refuse;

    Refusing(FleetRepository inner) {
      this.inner = inner;
    }

    @Override
    public List<Node> nodes() {
      return inner.nodes();
    }

    @Override
    public Optional<Node> node(NodeId id) {
      return inner.node(id);
    }

    @Override
    public Node recordObserved(NodeId id, Collection<Gpu> reported, Instant at) {
      if (refuse) {
        throw new StoreUnavailableException("the disk is full", null);
      }
      return inner.recordObserved(id, reported, at);
    }

    @Override
    public boolean remove(NodeId id) {
      return inner.remove(id);
    }
  }
}
