package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

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
    HTreeMap<String, byte[]> notes =
        old.hashMap("notes", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen();
    notes.put("legacy", StoredRecords.encode(Notes.V1, Notes.note("legacy", 3000)));
    old.commit();
    old.close();
    for (int i = 0; i < 5; i++) {
      Files.write(dir.resolve(StoreOptions.FILE_NAME + ".wal." + i), new byte[16]);
    }

    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      assertThat(Notes.get(store, "legacy")).isPresent();
      Notes.put(store, "new", 100);
    }
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder(StoreOptions.FILE_NAME, StoreOptions.FILE_NAME + ".journal");
    }
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      assertThat(Notes.get(store, "legacy")).isPresent();
      assertThat(Notes.get(store, "new")).isPresent();
    }
  }

  @Test
  void anInterruptedCallerNeitherLosesItsWriteNorBreaksTheStore() {
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      Thread.currentThread().interrupt();
      try {
        Notes.put(store, "while-interrupted", 6000);
        assertThat(Thread.currentThread().isInterrupted())
            .as("the caller's interrupt is kept for it")
            .isTrue();
      } finally {
        Thread.interrupted();
      }
      Notes.put(store, "after", 100);
      assertThat(Notes.get(store, "while-interrupted")).isPresent();
      assertThat(store.status().state()).isEqualTo(SubsystemState.UP);
    }
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      assertThat(Notes.get(store, "while-interrupted")).isPresent();
      assertThat(Notes.get(store, "after")).isPresent();
    }
  }
}
