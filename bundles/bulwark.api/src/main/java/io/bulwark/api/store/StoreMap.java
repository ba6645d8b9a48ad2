package io.bulwark.api.store;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A named map of the store: its name (unique in the store, e.g. {@code machines} or {@code
 * remediation.runs}), whether its keys are names ({@link String}, unordered) or numbers ({@link
 * Long}, in order: time series such as hourly accounts), and the format of its records.
 *
 * @param <K> {@link String} or {@link Long}
 * @param <V> the record type
 * @since 1.1
 */
public record StoreMap<K, V>(String name, Class<K> keyType, RecordFormat<V> format) {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9.-]{0,63}");

  /**
   * @throws IllegalArgumentException if the name is not 1-64 of a-z, 0-9, '.' and '-' starting with
   *     a letter, or the key type is neither String nor Long
   */
  public StoreMap {
    Objects.requireNonNull(format, "format");
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "a store map's name is 1-64 of a-z, 0-9, '.', '-': " + name);
    }
    if (keyType != String.class && keyType != Long.class) {
      throw new IllegalArgumentException("a store map's keys are String or Long, not " + keyType);
    }
  }

  /** Returns a map whose keys are names. */
  public static <V> StoreMap<String, V> byName(String name, RecordFormat<V> format) {
    return new StoreMap<>(name, String.class, format);
  }

  /** Returns a map whose keys are numbers, kept in order. */
  public static <V> StoreMap<Long, V> byNumber(String name, RecordFormat<V> format) {
    return new StoreMap<>(name, Long.class, format);
  }
}
