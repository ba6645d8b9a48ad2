package io.bulwark.store.internal;

import io.bulwark.api.store.StoreMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.mapdb.BTreeMap;
import org.mapdb.DB;
import org.mapdb.HTreeMap;
import org.mapdb.Serializer;

/**
 * The MapDB maps of one open database, opened by name as the store's users ask for them: a map by
 * name is an {@link HTreeMap} of strings to bytes, a map by number a {@link BTreeMap} of longs to
 * bytes (the layouts the store has always used, so that older data folders open as they are). A map
 * is created only by a write; a read of a map that was never written finds it empty.
 */
final class OpenMaps {
  private final DB db;
  private final Map<String, Object> open = new ConcurrentHashMap<>();

  OpenMaps(DB db) {
    this.db = db;
  }

  /**
   * Returns the raw map of {@code spec}, or null if it does not exist and {@code create} is false.
   */
  @SuppressWarnings("unchecked")
  <K> Map<K, byte[]> raw(StoreMap<K, ?> spec, boolean create) {
    Object map = open.get(spec.name());
    if (map == null) {
      if (!create && !db.exists(spec.name())) {
        return null;
      }
      synchronized (this) {
        map = open.computeIfAbsent(spec.name(), n -> openMap(spec));
      }
    }
    return (Map<K, byte[]>) map;
  }

  private Object openMap(StoreMap<?, ?> spec) {
    return spec.keyType() == Long.class
        ? db.treeMap(spec.name(), Serializer.LONG, Serializer.BYTE_ARRAY).createOrOpen()
        : db.hashMap(spec.name(), Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen();
  }

  /** Returns how many maps the database holds. */
  int count() {
    int count = 0;
    for (String ignored : db.getAllNames()) {
      count++;
    }
    return count;
  }
}
