package io.bulwark.api.store;

import java.util.List;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * One map of the store as a read or a write sees it. Records are decoded on every call (copies:
 * changing one changes nothing until it is {@linkplain #put put} back). Within a write, what it
 * changed is what the later calls of the same write see. Writing methods throw {@link
 * UnsupportedOperationException} in a read.
 *
 * @since 1.1
 */
@ProviderType
public interface RecordMap<K, V> {

  /** Returns the record of {@code key}, or null. */
  V get(K key);

  /** Returns true if there is a record of {@code key}. */
  boolean contains(K key);

  /** Returns how many records the map holds. */
  int size();

  /** Returns every record with its key; in key order for a map by number. */
  List<Map.Entry<K, V>> entries();

  /**
   * Returns the records whose keys are {@code from} or later, in order.
   *
   * @throws UnsupportedOperationException for a map by name
   */
  List<Map.Entry<K, V>> entriesFrom(K from);

  /** Stores {@code value} under {@code key}, replacing what was there. */
  void put(K key, V value);

  /** Removes the record of {@code key}; returns false if there was none. */
  boolean remove(K key);

  /**
   * Removes every record whose key is before {@code key}.
   *
   * @throws UnsupportedOperationException for a map by name
   */
  void removeBefore(K key);
}
