package io.bulwark.api.store;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The store as one read or write sees it. A map that was never written is empty.
 *
 * @since 1.1
 */
@ProviderType
public interface StoreReader {

  /** Returns the map {@code spec} names. */
  <K, V> RecordMap<K, V> map(StoreMap<K, V> spec);
}
