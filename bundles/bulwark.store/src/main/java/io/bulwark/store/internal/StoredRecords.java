package io.bulwark.store.internal;

import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.RecordMap;
import io.bulwark.api.store.StoreMap;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * One store map as a read or write sees it: records framed as their format's version (one byte)
 * followed by the format's bytes, decoded on every call. A record that cannot be read is an error
 * naming the map and the key, never a guess.
 */
final class StoredRecords<K, V> implements RecordMap<K, V> {
  private final StoreMap<K, V> spec;
  private final Map<K, byte[]> raw;
  private final boolean writable;

  /** {@code raw} is null for a map never written (empty; a read only). */
  StoredRecords(StoreMap<K, V> spec, Map<K, byte[]> raw, boolean writable) {
    this.spec = spec;
    this.raw = raw;
    this.writable = writable;
  }

  @Override
  public V get(K key) {
    byte[] bytes = raw == null ? null : raw.get(key);
    return bytes == null ? null : decode(spec, key, bytes);
  }

  @Override
  public boolean contains(K key) {
    return raw != null && raw.containsKey(key);
  }

  @Override
  public int size() {
    return raw == null ? 0 : raw.size();
  }

  @Override
  public List<Map.Entry<K, V>> entries() {
    return decodeAll(raw);
  }

  @Override
  public List<Map.Entry<K, V>> entriesFrom(K from) {
    NavigableMap<K, byte[]> ordered = ordered();
    return decodeAll(ordered == null ? null : ordered.tailMap(from, true));
  }

  @Override
  public void put(K key, V value) {
    writable().put(key, encode(spec.format(), value));
  }

  @Override
  public boolean remove(K key) {
    return writable().remove(key) != null;
  }

  @Override
  public void removeBefore(K key) {
    writable();
    ordered().headMap(key, false).clear();
  }

  private Map<K, byte[]> writable() {
    if (!writable) {
      throw new UnsupportedOperationException(
          "the store map " + spec.name() + " is read here: change it in a write");
    }
    return raw;
  }

  /** Returns the map in key order; null for a map never written (in a read). */
  @SuppressWarnings("unchecked")
  private NavigableMap<K, byte[]> ordered() {
    if (spec.keyType() != Long.class) {
      throw new UnsupportedOperationException(
          "the store map " + spec.name() + " is by name: its keys have no order");
    }
    return (NavigableMap<K, byte[]>) raw;
  }

  private List<Map.Entry<K, V>> decodeAll(Map<K, byte[]> from) {
    List<Map.Entry<K, V>> out = new ArrayList<>(from == null ? 0 : from.size());
    if (from != null) {
      for (Map.Entry<K, byte[]> e : from.entrySet()) {
        out.add(
            new AbstractMap.SimpleImmutableEntry<>(
                e.getKey(), decode(spec, e.getKey(), e.getValue())));
      }
    }
    return out;
  }

  /** Returns the stored bytes of {@code value}: the format's version, then its bytes. */
  static <V> byte[] encode(RecordFormat<V> format, V value) {
    int version = format.version();
    if (version < 1 || version > 255) {
      throw new IllegalArgumentException(
          "a record format's version is 1 to 255, not " + version + " (" + format.getClass() + ")");
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(version);
      format.write(value, out);
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode " + value + ": " + e.getMessage(), e);
    }
    return bytes.toByteArray();
  }

  /**
   * Reads a stored record.
   *
   * @throws IllegalStateException naming the map and the key if it cannot be read
   */
  static <K, V> V decode(StoreMap<K, V> spec, K key, byte[] bytes) {
    int version = bytes.length == 0 ? -1 : bytes[0] & 0xff;
    try (DataInputStream in =
        new DataInputStream(new ByteArrayInputStream(bytes, 1, bytes.length - 1))) {
      if (version < 1) {
        throw new IOException("the record is empty");
      }
      return spec.format().read(version, in);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "the record "
              + key
              + " of the store map "
              + spec.name()
              + " cannot be read (format version "
              + version
              + "): "
              + e.getMessage()
              + "; it was written by a newer Bulwark or is damaged",
          e);
    }
  }
}
