package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.store.StoreUnavailableException;
import io.bulwark.api.store.WritePriority;
import io.bulwark.api.system.SubsystemState;
import java.nio.file.Files;
import java.nio.file.Path;
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
    try (MapDbRecordStore store = new MapDbRecordStore(noGuard(dir))) {
      for (int i = 0; i < 50; i++) {
        Notes.put(store, "before-" + i, 100);
        acknowledged.add("before-" + i);
      }
      disk.fillLeaving(48 * 1024);
      // Large notes grow the data file until the disk refuses.
      for (int i = 0; i < 10_000 && refusal == null; i++) {
        try {
          Notes.put(store, "while-full-" + i, 6000);
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
        assertThat(Notes.get(store, id)).as(id).isPresent();
      }
      assertThatThrownBy(() -> Notes.put(store, "refused-again", 6000))
          .isInstanceOf(StoreUnavailableException.class);
      assertThat(Notes.get(store, "refused-again")).isEmpty();

      // Room again: the very same store instance writes, no restart.
      disk.makeRoom();
      Notes.put(store, "after-room", 100);
      acknowledged.add("after-room");
      assertThat(store.status().state()).isEqualTo(SubsystemState.UP);
      assertThat(Notes.get(store, "after-room")).isPresent();
    }
    try (MapDbRecordStore reopened = new MapDbRecordStore(noGuard(dir))) {
      for (String id : acknowledged) {
        assertThat(Notes.get(reopened, id)).as("after restart: " + id).isPresent();
      }
      assertThat(Notes.count(reopened)).isEqualTo(acknowledged.size());
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
    try (MapDbRecordStore store = new MapDbRecordStore(noGuard(dir))) {
      Notes.put(store, "f-first", 100);
      acknowledged.add("f-first");
      disk.fillLeaving(64 * 1024);
      for (int i = 0; i < 10_000; i++) {
        try {
          Notes.put(store, "f-" + i, 6000);
          acknowledged.add("f-" + i);
        } catch (StoreUnavailableException e) {
          break;
        }
      }
    }
    try (MapDbRecordStore reopened = new MapDbRecordStore(noGuard(dir))) {
      assertThat(acknowledged).isNotEmpty();
      for (String id : acknowledged) {
        assertThat(Notes.get(reopened, id)).as(id).isPresent();
      }
      assertThatThrownBy(() -> Notes.put(reopened, "still-full", 6000))
          .isInstanceOf(StoreUnavailableException.class);
      disk.makeRoom();
      Notes.put(reopened, "room-again", 6000);
      assertThat(Notes.get(reopened, "room-again")).isPresent();
    }
  }

  @Test
  void theReserveIsAtMostATenthOfTheDisk() throws Exception {
    try (MapDbRecordStore store =
        new MapDbRecordStore(
            new StoreOptions(
                disk.root.resolve("data"), 256L << 20, StoreOptions.DEFAULT_CACHED_PAGES))) {
      double reserve = store.status().measurements().get("bulwark_store_disk_reserve_bytes");
      assertThat(reserve).isEqualTo((double) (Files.getFileStore(disk.root).getTotalSpace() / 10));
      Notes.put(store, "fits", 100);
    }
  }

  @Test
  void theReserveRefusesRoutineWritesBeforeTheDiskIsFullButLetsAnAdministratorLogIn()
      throws Exception {
    Path dir = disk.root.resolve("data");
    StoreOptions guarded = new StoreOptions(dir, 512L << 10, StoreOptions.DEFAULT_CACHED_PAGES);
    try (MapDbRecordStore store = new MapDbRecordStore(guarded)) {
      Notes.put(store, "kept", 100);
      disk.fillLeaving(256L << 10);

      assertThatThrownBy(() -> Notes.put(store, "refused", 100))
          .isInstanceOf(StoreUnavailableException.class)
          .hasMessageContaining("below the store's reserve of 512.0 KiB")
          .hasMessageContaining("minFreeMegabytes");
      assertThat(Notes.get(store, "refused")).isEmpty();
      assertThat(store.status().state()).isEqualTo(SubsystemState.DOWN);
      assertThat(store.status().summary()).contains("below the store's reserve");
      assertThat(store.status().measurements())
          .containsKey("bulwark_store_disk_free_bytes")
          .containsEntry("bulwark_store_disk_reserve_bytes", (double) (512L << 10));

      // What an administrator needs to log in and act, and the appliance's findings about itself
      // (saying why), go on down to an eighth of the reserve.
      Notes.put(store, "login", 100, WritePriority.RESERVED);
      assertThat(Notes.get(store, "login")).isPresent();

      disk.makeRoom();
      Notes.put(store, "after-room", 100);
      assertThat(Notes.get(store, "after-room")).isPresent();
      assertThat(store.status().state()).isEqualTo(SubsystemState.UP);
    }
  }
}
