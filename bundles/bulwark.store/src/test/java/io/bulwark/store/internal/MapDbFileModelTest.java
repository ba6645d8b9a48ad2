package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mapdb.BTreeMap;
import org.mapdb.HTreeMap;
import org.mapdb.Serializer;

/**
 * MapDB on the page file against a plain map: 1,500 random puts and removes of values from empty to
 * larger than MapDB's record chunk (so records span pages and chunks), each committed, with the
 * database closed and opened again every few dozen writes. Whatever the model holds, the store
 * holds, in both map kinds the store uses.
 */
class MapDbFileModelTest {
  private record Maps(HTreeMap<String, byte[]> hash, BTreeMap<Long, byte[]> tree) {}

  @TempDir Path dir;

  private MapDbFile<Maps> open() throws Exception {
    return MapDbFile.open(
        dir.resolve("model.db"),
        new DiskReserve(dir, 0),
        8,
        db ->
            new Maps(
                db.hashMap("h", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen(),
                db.treeMap("t", Serializer.LONG, Serializer.BYTE_ARRAY).createOrOpen()),
        Clock.systemUTC());
  }

  @Test
  void randomWritesAndReopensAgreeWithAPlainMap() throws Exception {
    Random random = new Random(20261201);
    Map<String, byte[]> model = new HashMap<>();
    MapDbFile<Maps> db = open();
    try {
      for (int op = 0; op < 1500; op++) {
        String key = "k" + random.nextInt(400);
        if (random.nextInt(5) == 0) {
          db.write("remove", false, m -> m.hash().remove(key));
          db.write("remove", false, m -> m.tree().remove((long) key.hashCode()));
          model.remove(key);
        } else {
          int size =
              random.nextInt(20) == 0 ? 70_000 + random.nextInt(60_000) : random.nextInt(9000);
          byte[] value = new byte[size];
          random.nextBytes(value);
          db.write(
              "put",
              false,
              m -> {
                m.hash().put(key, value);
                m.tree().put((long) key.hashCode(), value);
                return null;
              });
          model.put(key, value);
        }
        if (op % 37 == 36) {
          db.close();
          db = open();
        }
      }
      MapDbFile<Maps> last = db;
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        byte[] inHash = last.read(m -> m.hash().get(e.getKey()));
        byte[] inTree = last.read(m -> m.tree().get((long) e.getKey().hashCode()));
        assertThat(inHash).as(e.getKey()).isEqualTo(e.getValue());
        assertThat(inTree).as(e.getKey()).isEqualTo(e.getValue());
      }
      int size = last.read(m -> m.hash().size());
      List<String> keys = last.read(m -> List.copyOf(m.hash().keySet()));
      assertThat(size).isEqualTo(model.size());
      assertThat(keys).containsExactlyInAnyOrderElementsOf(model.keySet());
    } finally {
      db.close();
    }
  }
}
