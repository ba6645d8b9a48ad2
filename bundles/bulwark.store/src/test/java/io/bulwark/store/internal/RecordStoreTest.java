package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.RecordMap;
import io.bulwark.api.store.StoreMap;
import io.bulwark.api.store.WritePriority;
import io.bulwark.store.internal.Notes.Note;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store as its users see it: named maps of versioned records, one write one transaction across
 * maps (all of it or nothing of it, also when the change itself fails), maps by number in order,
 * reads that cannot write, and a record that cannot be read named with its map and key.
 */
class RecordStoreTest {
  @TempDir Path dir;

  @Test
  void aWriteAcrossMapsIsKeptWholeAcrossAReopen() {
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      store.write(
          "save a note and its copy",
          WritePriority.ROUTINE,
          s -> {
            s.map(Notes.BY_ID).put("a", new Note("a", "alpha"));
            s.map(Notes.COPIES).put("a", new Note("a", "alpha, copied"));
            s.map(Notes.BY_NUMBER).put(7L, new Note("a", "seventh"));
            assertThat(s.map(Notes.BY_ID).get("a"))
                .as("a write sees what it changed")
                .isEqualTo(new Note("a", "alpha"));
            return null;
          });
    }
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      Note copy = store.read(s -> s.map(Notes.COPIES).get("a"));
      Note seventh = store.read(s -> s.map(Notes.BY_NUMBER).get(7L));
      assertThat(copy).isEqualTo(new Note("a", "alpha, copied"));
      assertThat(seventh.text()).isEqualTo("seventh");
      assertThat(Notes.count(store)).isEqualTo(1);
    }
  }

  @Test
  void aChangeThatFailsHalfwayKeepsNothingAndTheNextWriteIsClean() {
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      Notes.put(store, "kept", 100);
      assertThatThrownBy(
              () ->
                  store.write(
                      "save two notes",
                      WritePriority.ROUTINE,
                      s -> {
                        s.map(Notes.BY_ID).put("half", Notes.note("half", 5000));
                        s.map(Notes.BY_ID).remove("kept");
                        throw new IllegalArgumentException("the second note is refused");
                      }))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("the second note is refused");
      assertThat(Notes.get(store, "half")).isEmpty();
      assertThat(Notes.get(store, "kept")).isPresent();

      Notes.put(store, "next", 100);
      assertThat(store.status().summary()).doesNotContain("fail");
    }
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      assertThat(Notes.get(store, "half")).as("not committed by the next write").isEmpty();
      assertThat(Notes.get(store, "kept")).isPresent();
      assertThat(Notes.get(store, "next")).isPresent();
    }
  }

  @Test
  void aMapByNumberIsInOrderAndDropsWhatIsBeforeAKey() {
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      store.write(
          "save hours",
          WritePriority.ROUTINE,
          s -> {
            RecordMap<Long, Note> log = s.map(Notes.BY_NUMBER);
            for (long hour : new long[] {30, 10, 20, 40}) {
              log.put(hour, new Note("h" + hour, "hour " + hour));
            }
            log.removeBefore(20L);
            return null;
          });
      List<Map.Entry<Long, Note>> all = store.read(s -> s.map(Notes.BY_NUMBER).entries());
      List<Map.Entry<Long, Note>> later = store.read(s -> s.map(Notes.BY_NUMBER).entriesFrom(25L));
      assertThat(all).extracting(Map.Entry::getKey).containsExactly(20L, 30L, 40L);
      assertThat(later).extracting(e -> e.getValue().id()).containsExactly("h30", "h40");
      assertThatThrownBy(() -> store.read(s -> s.map(Notes.BY_ID).entriesFrom("a")))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("notes");
    }
  }

  @Test
  void aReadFindsAMapNeverWrittenEmptyAndCannotChangeOne() {
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      List<Map.Entry<String, Note>> none = store.read(s -> s.map(Notes.BY_ID).entries());
      Note missing = store.read(s -> s.map(Notes.BY_ID).get("x"));
      assertThat(none).isEmpty();
      assertThat(missing).isNull();
      assertThatThrownBy(
              () ->
                  store.read(
                      s -> {
                        s.map(Notes.BY_ID).put("x", new Note("x", "in a read"));
                        return null;
                      }))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("change it in a write");
      assertThat(Notes.count(store)).isZero();
    }
  }

  @Test
  void aLaterFormatReadsWhatAnEarlierOneWroteAndAnEarlierOneRefusesALaterRecordByName() {
    StoreMap<String, Note> newer = StoreMap.byName("notes", Notes.V2);
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      Notes.put(store, "old", 10);
      store.write(
          "save a newer note",
          WritePriority.ROUTINE,
          s -> {
            s.map(newer).put("new", new Note("new", "two\nlines"));
            return null;
          });
      Note old = store.read(s -> s.map(newer).get("old"));
      assertThat(old.id()).isEqualTo("old");
      assertThatThrownBy(() -> Notes.get(store, "new"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("the record new of the store map notes")
          .hasMessageContaining("format version 2")
          .hasMessageContaining("this Bulwark reads 1 to 1");
    }
  }

  @Test
  void aFormatMustStayWithinOneByteOfVersions() {
    RecordFormat<Note> wrong =
        new RecordFormat<>() {
          @Override
          public int version() {
            return 256;
          }

          @Override
          public void write(Note value, DataOutputStream out) {}

          @Override
          public Note read(int version, DataInputStream in) {
            return null;
          }
        };
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      assertThatThrownBy(
              () ->
                  store.write(
                      "save",
                      WritePriority.ROUTINE,
                      s -> {
                        s.map(StoreMap.byName("wrong", wrong)).put("x", new Note("x", ""));
                        return null;
                      }))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("1 to 255");
    }
  }

  @Test
  void mapNamesAndKeyTypesAreChecked() {
    assertThatThrownBy(() -> StoreMap.byName("Machines!", Notes.V1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Machines!");
    assertThatThrownBy(() -> new StoreMap<>("ints", Integer.class, Notes.V1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("String or Long");
  }

  @Test
  void aSecondStoreOnTheSameFolderIsRefusedWithAClearMessage() {
    try (MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(dir))) {
      assertThatThrownBy(() -> new MapDbRecordStore(new StoreOptions(dir)))
          .hasMessageContaining(dir.toString())
          .hasMessageContaining("BULWARK_DATA_DIR");
    }
  }

  @Test
  void anEmptyDataDirSettingIsRefusedNamingTheSetting() {
    StoreConfig blank =
        new StoreConfig() {
          @Override
          public String dataDir() {
            return " ";
          }

          @Override
          public long minFreeMegabytes() {
            return 256;
          }

          @Override
          public int cacheMegabytes() {
            return 32;
          }

          @Override
          public Class<StoreConfig> annotationType() {
            return StoreConfig.class;
          }
        };
    assertThatThrownBy(() -> StoreOptions.from(blank)).hasMessageContaining("dataDir");
  }
}
