package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.system.SubsystemState;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mapdb.DB;
import org.mapdb.DBMaker;
import org.mapdb.HTreeMap;
import org.mapdb.Serializer;

/**
 * What the store meets when it opens or runs beyond plain writes: a database written by the earlier
 * engine (MapDB's own write-ahead log) with its leftover log files, and a caller whose thread was
 * interrupted, which would otherwise close the store's files for everyone.
 */
class StoreRecoveryTest {
  @TempDir Path dir;

  @Test
  void aStoreWrittenByTheEarlierEngineOpensWithItsRecordsAndItsLeftoverLogsRemoved()
      throws Exception {
    Path file = dir.resolve(StoreOptions.FILE_NAME);
    DB old = DBMaker.fileDB(file.toFile()).transactionEnable().make();
    HTreeMap<String, byte[]> findings =
        old.hashMap("findings", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen();
    findings.put(
        "legacy",
        RecordCodec.encode(CrashSafetyTest.finding("legacy", NodeId.of("gpu-node-9"), 1)));
    old.commit();
    old.close();
    for (int i = 0; i < 5; i++) {
      Files.write(dir.resolve(StoreOptions.FILE_NAME + ".wal." + i), new byte[16]);
    }

    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      assertThat(store.get("legacy")).isPresent();
      store.save(CrashSafetyTest.finding("new", NodeId.of("gpu-node-9"), 0));
    }
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder(StoreOptions.FILE_NAME, StoreOptions.FILE_NAME + ".journal");
    }
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      assertThat(store.get("legacy")).isPresent();
      assertThat(store.get("new")).isPresent();
    }
  }

  @Test
  void anInterruptedCallerNeitherLosesItsWriteNorBreaksTheStore() {
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      Thread.currentThread().interrupt();
      try {
        store.save(CrashSafetyTest.finding("while-interrupted", NodeId.of("gpu-node-1"), 2));
        assertThat(Thread.currentThread().isInterrupted())
            .as("the caller's interrupt is kept for it")
            .isTrue();
      } finally {
        Thread.interrupted();
      }
      store.save(CrashSafetyTest.finding("after", NodeId.of("gpu-node-1"), 0));
      assertThat(store.get("while-interrupted")).isPresent();
      assertThat(store.status().state()).isEqualTo(SubsystemState.UP);
    }
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      assertThat(store.get("while-interrupted")).isPresent();
      assertThat(store.get("after")).isPresent();
    }
  }
}
