package io.bulwark.updates.internal;

import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeMap;

/**
 * A set of bundles the appliance runs: the package version it came with and, by symbolic name, each
 * bundle's version and where its jar is kept ({@code embedded:LOCATION}, a bundle of the
 * appliance's own jar, or {@code repo:PATH}, a jar in the offline repository).
 *
 * @param version the appliance version this set is
 * @param bundles the bundles by symbolic name
 */
record BundleSet(String version, Map<String, Member> bundles) {
  /** One bundle of the set. */
  record Member(String version, String source) {
    boolean embedded() {
      return source.startsWith(EMBEDDED);
    }
  }

  static final String EMBEDDED = "embedded:";
  static final String REPO = "repo:";

  BundleSet {
    bundles = java.util.Collections.unmodifiableMap(new TreeMap<>(bundles));
  }

  JsonObject toJson() {
    JsonObject b = new JsonObject();
    bundles.forEach(
        (k, v) -> b.put(k, new JsonObject().put("version", v.version()).put("source", v.source())));
    return new JsonObject().put("version", version).put("bundles", b);
  }

  static BundleSet fromJson(JsonObject o) {
    Map<String, Member> m = new TreeMap<>();
    JsonObject b = o.getJsonObject("bundles", new JsonObject());
    for (String k : b.fieldNames()) {
      JsonObject v = b.getJsonObject(k);
      m.put(k, new Member(v.getString("version"), v.getString("source")));
    }
    return new BundleSet(o.getString("version"), m);
  }

  /** The bundles whose jar differs between this set and {@code next}, or that only one has. */
  java.util.Set<String> changedTo(BundleSet next) {
    java.util.Set<String> out = new java.util.TreeSet<>();
    for (var e : next.bundles.entrySet()) {
      if (!e.getValue().equals(bundles.get(e.getKey()))) {
        out.add(e.getKey());
      }
    }
    for (String k : bundles.keySet()) {
      if (!next.bundles.containsKey(k)) {
        out.add(k);
      }
    }
    return out;
  }
}
