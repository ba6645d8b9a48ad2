package io.bulwark.updates.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.jar.Attributes;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import org.osgi.framework.Version;
import org.osgi.framework.VersionRange;
import org.osgi.resource.Capability;
import org.osgi.resource.Requirement;
import org.osgi.resource.Resource;

/**
 * A bundle of an update package as an OSGi resource: the capabilities and requirements its manifest
 * declares (identity, bundle, host, exported and imported packages, Provide-Capability,
 * Require-Capability, Require-Bundle, Fragment-Host), read as the framework would read them, so
 * that the dry-run resolve and the R5 index see what the framework will see when the bundle is
 * installed.
 */
final class BundleResource implements Resource {
  static final String IDENTITY = "osgi.identity";
  static final String PACKAGE = "osgi.wiring.package";
  static final String BUNDLE = "osgi.wiring.bundle";
  static final String HOST = "osgi.wiring.host";

  private final String symbolicName;
  private final Version version;
  private final boolean fragment;
  private final List<Capability> capabilities = new ArrayList<>();
  private final List<Requirement> requirements = new ArrayList<>();

  private BundleResource(Attributes main) {
    String bsn = main.getValue("Bundle-SymbolicName");
    if (bsn == null || bsn.isBlank()) {
      throw new IllegalArgumentException("it is not an OSGi bundle (no Bundle-SymbolicName)");
    }
    List<Clause> name = Clause.parse(bsn);
    symbolicName = name.get(0).path;
    try {
      version =
          Version.parseVersion(Objects.toString(main.getValue("Bundle-Version"), "0").strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "its Bundle-Version '" + main.getValue("Bundle-Version") + "' is no OSGi version");
    }
    String host = main.getValue("Fragment-Host");
    fragment = host != null;
    Map<String, Object> id = new LinkedHashMap<>();
    id.put(IDENTITY, symbolicName);
    id.put("type", fragment ? "osgi.fragment" : "osgi.bundle");
    id.put("version", version);
    capabilities.add(new Cap(IDENTITY, Map.of(), id));
    if (!fragment) {
      capabilities.add(
          new Cap(BUNDLE, Map.of(), Map.of(BUNDLE, symbolicName, "bundle-version", version)));
      capabilities.add(
          new Cap(HOST, Map.of(), Map.of(HOST, symbolicName, "bundle-version", version)));
    } else {
      Clause h = Clause.parse(host).get(0);
      requirements.add(new Req(HOST, Map.of("filter", filter(HOST, h.path, h, "bundle-version"))));
    }
    for (Clause c : Clause.parse(main.getValue("Export-Package"))) {
      for (String pkg : c.paths()) {
        Map<String, Object> a = new LinkedHashMap<>(c.attributes);
        a.put(PACKAGE, pkg);
        a.put("version", Version.parseVersion(Objects.toString(c.attributes.get("version"), "0")));
        a.put("bundle-symbolic-name", symbolicName);
        a.put("bundle-version", version);
        capabilities.add(new Cap(PACKAGE, c.directives, a));
      }
    }
    for (Clause c : Clause.parse(main.getValue("Import-Package"))) {
      for (String pkg : c.paths()) {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("filter", filter(PACKAGE, pkg, c, "version"));
        if (c.directives.containsKey("resolution")) {
          d.put("resolution", c.directives.get("resolution"));
        }
        requirements.add(new Req(PACKAGE, d));
      }
    }
    for (Clause c : Clause.parse(main.getValue("Require-Bundle"))) {
      Map<String, String> d = new LinkedHashMap<>();
      d.put("filter", filter(BUNDLE, c.path, c, "bundle-version"));
      if (c.directives.containsKey("resolution")) {
        d.put("resolution", c.directives.get("resolution"));
      }
      requirements.add(new Req(BUNDLE, d));
    }
    for (Clause c : Clause.parse(main.getValue("Provide-Capability"))) {
      capabilities.add(new Cap(c.path, c.directives, c.attributes));
    }
    for (Clause c : Clause.parse(main.getValue("Require-Capability"))) {
      requirements.add(new Req(c.path, c.directives));
    }
  }

  /** Reads the manifest of the bundle {@code jar}. */
  static BundleResource read(Path jar) throws IOException {
    try (InputStream in = Files.newInputStream(jar)) {
      return read(in, jar.getFileName().toString());
    }
  }

  /** Reads the manifest of a bundle from its bytes; {@code name} names it in errors. */
  static BundleResource read(InputStream in, String name) throws IOException {
    try (JarInputStream jar = new JarInputStream(in, false)) {
      Manifest m = jar.getManifest();
      if (m == null) {
        throw new IllegalArgumentException(name + " is not an OSGi bundle (no manifest)");
      }
      return new BundleResource(m.getMainAttributes());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          e.getMessage().startsWith(name) ? e.getMessage() : name + ": " + e.getMessage(), e);
    }
  }

  /** Reads a resource from manifest attributes (as a test or the index reader has them). */
  static BundleResource of(Attributes main) {
    return new BundleResource(main);
  }

  String symbolicName() {
    return symbolicName;
  }

  Version version() {
    return version;
  }

  boolean fragment() {
    return fragment;
  }

  @Override
  public List<Capability> getCapabilities(String namespace) {
    return namespace == null
        ? Collections.unmodifiableList(capabilities)
        : capabilities.stream().filter(c -> c.getNamespace().equals(namespace)).toList();
  }

  @Override
  public List<Requirement> getRequirements(String namespace) {
    return namespace == null
        ? Collections.unmodifiableList(requirements)
        : requirements.stream().filter(r -> r.getNamespace().equals(namespace)).toList();
  }

  @Override
  public String toString() {
    return symbolicName + " " + version;
  }

  /** The filter an import of {@code name} with the clause's version range stands for. */
  private static String filter(String namespace, String name, Clause c, String versionAttribute) {
    Object v = c.attributes.get(versionAttribute);
    StringBuilder f = new StringBuilder("(").append(namespace).append('=').append(name).append(')');
    if (v == null) {
      return f.toString();
    }
    VersionRange range;
    try {
      range = new VersionRange(v.toString().strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the version range '" + v + "' of " + name + " is no OSGi version range");
    }
    return "(&" + f + range.toFilterString(versionAttribute) + ")";
  }

  /** A capability of this resource. */
  private final class Cap implements Capability {
    private final String namespace;
    private final Map<String, String> directives;
    private final Map<String, Object> attributes;

    Cap(String namespace, Map<String, String> directives, Map<String, Object> attributes) {
      this.namespace = namespace;
      this.directives = Map.copyOf(directives);
      this.attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }

    @Override
    public String getNamespace() {
      return namespace;
    }

    @Override
    public Map<String, String> getDirectives() {
      return directives;
    }

    @Override
    public Map<String, Object> getAttributes() {
      return attributes;
    }

    @Override
    public Resource getResource() {
      return BundleResource.this;
    }

    @Override
    public String toString() {
      return namespace + attributes;
    }
  }

  /** A requirement of this resource. */
  private final class Req implements Requirement {
    private final String namespace;
    private final Map<String, String> directives;

    Req(String namespace, Map<String, String> directives) {
      this.namespace = namespace;
      this.directives = Map.copyOf(directives);
    }

    @Override
    public String getNamespace() {
      return namespace;
    }

    @Override
    public Map<String, String> getDirectives() {
      return directives;
    }

    @Override
    public Map<String, Object> getAttributes() {
      return Map.of();
    }

    @Override
    public Resource getResource() {
      return BundleResource.this;
    }

    @Override
    public String toString() {
      return namespace + directives;
    }
  }

  /**
   * One clause of an OSGi manifest header (Core 3.2.4): paths separated by ';', then attributes
   * ({@code name=value}, {@code name:Type=value}) and directives ({@code name:=value}), values
   * optionally quoted.
   */
  static final class Clause {
    final String path;
    private final List<String> paths;
    final Map<String, String> directives = new LinkedHashMap<>();
    final Map<String, Object> attributes = new LinkedHashMap<>();

    private Clause(List<String> paths) {
      this.paths = paths;
      this.path = paths.get(0);
    }

    List<String> paths() {
      return paths;
    }

    /** Parses a header into its clauses; an absent header has none. */
    static List<Clause> parse(String header) {
      List<Clause> out = new ArrayList<>();
      if (header == null || header.isBlank()) {
        return out;
      }
      for (String clause : split(header, ',')) {
        if (clause.isBlank()) {
          continue;
        }
        List<String> parts = split(clause, ';');
        List<String> paths = new ArrayList<>();
        List<String> params = new ArrayList<>();
        for (String p : parts) {
          String s = p.strip();
          if (params.isEmpty() && !s.contains("=")) {
            paths.add(s);
          } else {
            params.add(s);
          }
        }
        if (paths.isEmpty()) {
          throw new IllegalArgumentException(
              "the manifest clause '" + clause.strip() + "' names nothing");
        }
        Clause c = new Clause(paths);
        for (String p : params) {
          int eq = p.indexOf('=');
          if (eq < 0) {
            throw new IllegalArgumentException("the manifest parameter '" + p + "' has no value");
          }
          boolean directive = eq > 0 && p.charAt(eq - 1) == ':';
          String key = p.substring(0, directive ? eq - 1 : eq).strip();
          String value = unquote(p.substring(eq + 1).strip());
          if (directive) {
            c.directives.put(key, value);
          } else {
            int colon = key.indexOf(':');
            if (colon < 0) {
              c.attributes.put(key, value);
            } else {
              c.attributes.put(
                  key.substring(0, colon).strip(), typed(key.substring(colon + 1).strip(), value));
            }
          }
        }
        out.add(c);
      }
      return out;
    }

    private static Object typed(String type, String value) {
      switch (type) {
        case "String":
          return value;
        case "Version":
          return Version.parseVersion(value);
        case "Long":
          return Long.parseLong(value.strip());
        case "Double":
          return Double.parseDouble(value.strip());
        default:
          if (type.startsWith("List<") && type.endsWith(">")) {
            String element = type.substring(5, type.length() - 1).strip();
            List<Object> list = new ArrayList<>();
            for (String v : value.split(",")) {
              list.add(typed(element, v.strip()));
            }
            return List.copyOf(list);
          }
          if (type.equals("List")) {
            return List.of(value.split(","));
          }
          throw new IllegalArgumentException(
              "the manifest attribute type '" + type + "' is unknown");
      }
    }

    private static String unquote(String v) {
      return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")
          ? v.substring(1, v.length() - 1)
          : v;
    }

    /** Splits on {@code sep} outside double quotes. */
    private static List<String> split(String s, char sep) {
      List<String> out = new ArrayList<>();
      StringBuilder b = new StringBuilder();
      boolean quoted = false;
      for (int i = 0; i < s.length(); i++) {
        char ch = s.charAt(i);
        if (ch == '"') {
          quoted = !quoted;
        }
        if (ch == sep && !quoted) {
          out.add(b.toString());
          b.setLength(0);
        } else {
          b.append(ch);
        }
      }
      if (quoted) {
        throw new IllegalArgumentException("the manifest header has an unclosed quote: " + s);
      }
      out.add(b.toString());
      return out;
    }
  }
}
