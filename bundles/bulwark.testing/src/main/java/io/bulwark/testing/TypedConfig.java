package io.bulwark.testing;

import java.util.Map;
import java.util.Objects;
import org.osgi.util.converter.Converter;
import org.osgi.util.converter.Converters;

/**
 * The configuration that Declarative Services hands to an {@code @Activate} constructor, for unit
 * tests that run without a framework: the OSGi Converter turns a map of properties into an instance
 * of the component's configuration annotation, as Service Component Runtime does (the same name
 * mapping, the same value conversion, the annotation's defaults for what the map leaves out). A
 * property given as the string Config Admin would deliver ({@code "30"} for an {@code int}) is
 * converted as it would be at run time.
 */
public final class TypedConfig {
  private static final Converter CONVERTER = Converters.standardConverter();

  private TypedConfig() {}

  /** Returns an instance of {@code type} with {@code properties} in place of its defaults. */
  public static <A> A of(Class<A> type, Map<String, ?> properties) {
    Objects.requireNonNull(type, "type");
    return CONVERTER.convert(Map.copyOf(properties)).to(type);
  }

  /** Returns an instance of {@code type} that has the annotation defaults only. */
  public static <A> A defaults(Class<A> type) {
    return of(type, Map.of());
  }
}
