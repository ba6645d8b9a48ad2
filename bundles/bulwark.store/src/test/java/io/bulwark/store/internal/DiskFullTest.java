package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserAccount;
import io.bulwark.api.store.StoreUnavailableException;
import io.bulwark.api.system.SubsystemState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store on a real disk that fills up (a small tmpfs): a write the disk cannot take is refused
 * with {@link StoreUnavailableException} and changes nothing, what was committed stays readable,
 * the store writes again as soon as there is room (no restart), and a restart opens every committed
 * record. With the free-space guard, routine writes stop before the disk is full.
 */
class DiskFullTest {
  private static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");

  @TempDir Path tmp;
  private SmallDisk disk;

  @BeforeEach
  void mount() throws Exception {
    disk = SmallDisk.mount(tmp, 8);
  }

  @AfterEach
  void unmount() throws Exception {
    disk.close();
  }

  private static StoreOptions noGuard(Path dir) {
    return new StoreOptions(dir, 0, StoreOptions.DEFAULT_CACHED_PAGES);
  }

  @Test
  void aFullDiskRefusesTheWriteLosesNothingAndTheStoreRecoversWithoutARestart() throws Exception {
    Path dir = disk.root.resolve("data");
    List<String> acknowledged = new ArrayList<>();
    StoreUnavailableException refusal = null;
    try (MapDbStore store = new MapDbStore(noGuard(dir))) {
      for (int i = 0; i < 50; i++) {
        store.save(finding("before-" + i));
        acknowledged.add("before-" + i);
      }
      disk.fillLeaving(48 * 1024);
      // Findings with large evidence grow the data file until the disk refuses.
      for (int i = 0; i < 10_000 && refusal == null; i++) {
        try {
          store.save(bigFinding("while-full-" + i));
          acknowledged.add("while-full-" + i);
        } catch (StoreUnavailableException e) {
          refusal = e;
        }
      }
      assertThat(refusal).as("the full disk refused a write").isNotNull();
      assertThat(refusal).hasMessageContaining("nothing was changed");
      assertThat(store.status().state()).isEqualTo(SubsystemState.DOWN);

      // Every committed record is still readable, and a second refused write changes nothing.
      for (String id : acknowledged) {
        assertThat(store.get(id)).as(id).isPresent();
      }
      assertThatThrownBy(() -> store.save(bigFinding("refused-again")))
          .isInstanceOf(StoreUnavailableException.class);
      assertThat(store.get("refused-again")).isEmpty();

      // Room again: the very same store instance writes, no restart.
      disk.makeRoom();
      store.save(finding("after-room"));
      acknowledged.add("after-room");
      assertThat(store.status().state()).isEqualTo(SubsystemState.UP);
      assertThat(store.get("after-room")).isPresent();
    }
    try (MapDbStore reopened = new MapDbStore(noGuard(dir))) {
      for (String id : acknowledged) {
        assertThat(reopened.get(id)).as("after restart: " + id).isPresent();
      }
      assertThat(reopened.find(FindingQuery.open().withLimit(100_000)))
          .hasSize(acknowledged.size());
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("no debris of failed writes")
          .containsExactlyInAnyOrder("bulwark.db", "bulwark.db.journal");
    }
  }

  @Test
  void aRestartWhileTheDiskIsStillFullOpensEveryCommittedRecord() throws Exception {
    Path dir = disk.root.resolve("data");
    List<String> acknowledged = new ArrayList<>();
    try (MapDbStore store = new MapDbStore(noGuard(dir))) {
      disk.fillLeaving(64 * 1024);
      for (int i = 0; i < 10_000; i++) {
        try {
          store.save(bigFinding("f-" + i));
          acknowledged.add("f-" + i);
        } catch (StoreUnavailableException e) {
          break;
        }
      }
    }
    try (MapDbStore reopened = new MapDbStore(noGuard(dir))) {
      assertThat(acknowledged).isNotEmpty();
      for (String id : acknowledged) {
        assertThat(reopened.get(id)).as(id).isPresent();
      }
      assertThatThrownBy(() -> reopened.save(bigFinding("still-full")))
          .isInstanceOf(StoreUnavailableException.class);
      disk.makeRoom();
      reopened.save(bigFinding("room-again"));
      assertThat(reopened.get("room-again")).isPresent();
    }
  }

  @Test
  void theReserveIsAtMostATenthOfTheDisk() throws Exception {
    try (MapDbStore store =
        new MapDbStore(
            new StoreOptions(
                disk.root.resolve("data"), 256L << 20, StoreOptions.DEFAULT_CACHED_PAGES))) {
      double reserve = store.status().measurements().get("bulwark_store_disk_reserve_bytes");
      assertThat(reserve).isEqualTo((double) (Files.getFileStore(disk.root).getTotalSpace() / 10));
      store.save(finding("fits"));
    }
  }

  @Test
  void theReserveRefusesRoutineWritesBeforeTheDiskIsFullButLetsAnAdministratorLogIn()
      throws Exception {
    Path dir = disk.root.resolve("data");
    StoreOptions guarded = new StoreOptions(dir, 512L << 10, StoreOptions.DEFAULT_CACHED_PAGES);
    try (MapDbStore store = new MapDbStore(guarded)) {
      store.save(finding("kept"));
      disk.fillLeaving(256L << 10);

      assertThatThrownBy(() -> store.save(finding("refused")))
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("below the store's reserve of 512.0 KiB")
          .hasMessageContaining("minFreeMegabytes");
      assertThat(store.get("refused")).isEmpty();
      assertThat(store.status().state()).isEqualTo(SubsystemState.DOWN);
      assertThat(store.status().summary()).contains("below the store's reserve");
      assertThat(store.status().measurements())
          .containsKey("bulwark_store_disk_free_bytes")
          .containsEntry("bulwark_store_disk_reserve_bytes", (double) (512L << 10));

      // A finding about the appliance itself is written too, so that it says why.
      store.save(
          MapDbStoreTest.finding(
              "disk", "appliance-store", NodeId.of("bulwark-appliance"), FindingState.OPEN, T0));
      assertThat(store.get("disk")).isPresent();

      // A login records the account: it goes on down to an eighth of the reserve.
      store.save(
          new UserAccount("admin", Role.ADMIN, "pbkdf2$1$x$y", false, T0, List.of(), null, false));
      assertThat(store.user("admin")).isPresent();

      disk.makeRoom();
      store.save(finding("after-room"));
      assertThat(store.get("after-room")).isPresent();
      assertThat(store.status().state()).isEqualTo(SubsystemState.UP);
    }
  }

  static io.bulwark.api.health.Finding finding(String id) {
    return MapDbStoreTest.finding(id, "xid", NodeId.of("gpu-node-001"), FindingState.OPEN, T0);
  }

  private static io.bulwark.api.health.Finding bigFinding(String id) {
    io.bulwark.api.health.Finding f = finding(id);
    return new io.bulwark.api.health.Finding(
        f.id(),
        f.kind(),
        f.node(),
        f.gpu(),
        f.severity(),
        f.state(),
        f.firstSeen(),
        f.lastSeen(),
        f.resolvedAt(),
        f.summary(),
        java.util.Map.of("log", "x".repeat(6000) + id),
        f.recommendedAction(),
        f.performanceFactor(),
        f.occurrences());
  }
}
