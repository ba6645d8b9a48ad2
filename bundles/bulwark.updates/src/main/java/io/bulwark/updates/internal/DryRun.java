package io.bulwark.updates.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.osgi.framework.Bundle;
import org.osgi.framework.Filter;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.resource.Capability;
import org.osgi.resource.Requirement;
import org.osgi.resource.Resource;
import org.osgi.resource.Wiring;
import org.osgi.service.resolver.HostedCapability;
import org.osgi.service.resolver.ResolutionException;
import org.osgi.service.resolver.ResolveContext;
import org.osgi.service.resolver.Resolver;

/**
 * A dry-run resolve of a new bundle set against the running framework, with the framework's own
 * resolver: the package's bundles, and every running bundle wired (directly or not) to a bundle the
 * package replaces, must resolve against the bundles that stay, the system bundle and each other.
 * Nothing is installed; the answer is the list of unresolved requirements, in words.
 */
final class DryRun {
  private DryRun() {}

  /**
   * Resolves {@code incoming} as if each replaced the running bundle of its symbolic name.
   *
   * @return the problems, empty if the set resolves
   */
  static List<String> check(Resolver resolver, Bundle[] running, List<BundleResource> incoming) {
    Set<String> replaced = new HashSet<>();
    for (BundleResource r : incoming) {
      replaced.add(r.symbolicName());
    }
    Map<Resource, Wiring> wirings = new HashMap<>();
    List<Capability> stay = new ArrayList<>();
    Set<BundleRevision> affected = new LinkedHashSet<>();
    Map<BundleRevision, BundleWiring> live = new HashMap<>();
    for (Bundle b : running) {
      BundleRevision rev = b.adapt(BundleRevision.class);
      if (rev == null || b.getState() == Bundle.UNINSTALLED) {
        continue;
      }
      BundleWiring w = rev.getWiring();
      if (w != null) {
        live.put(rev, w);
      }
      if (replaced.contains(b.getSymbolicName())) {
        affected.add(rev);
      }
    }
    // Every bundle wired to a replaced one is refreshed with it, so it must resolve again.
    Deque<BundleRevision> todo = new ArrayDeque<>(affected);
    while (!todo.isEmpty()) {
      BundleWiring w = live.get(todo.pop());
      if (w == null) {
        continue;
      }
      for (BundleWire wire : w.getProvidedWires(null)) {
        BundleRevision user = wire.getRequirer();
        if (affected.add(user)) {
          todo.add(user);
        }
      }
    }
    List<Resource> mandatory = new ArrayList<>(incoming);
    for (Map.Entry<BundleRevision, BundleWiring> e : live.entrySet()) {
      BundleRevision rev = e.getKey();
      if (affected.contains(rev)) {
        if (!replaced.contains(rev.getSymbolicName())) {
          mandatory.add(rev);
        }
      } else {
        wirings.put(rev, e.getValue());
      }
    }
    List<Capability> pool = new ArrayList<>();
    for (BundleResource r : incoming) {
      pool.addAll(r.getCapabilities(null));
    }
    for (BundleRevision rev : live.keySet()) {
      if (!replaced.contains(rev.getSymbolicName())) {
        stay.addAll(rev.getCapabilities(null));
      }
    }
    pool.addAll(stay);
    Context ctx = new Context(mandatory, pool, wirings);
    try {
      resolver.resolve(ctx);
      return List.of();
    } catch (ResolutionException e) {
      List<String> problems = new ArrayList<>();
      Collection<Requirement> unresolved = e.getUnresolvedRequirements();
      for (Requirement r : unresolved) {
        problems.add(words(r));
      }
      if (problems.isEmpty()) {
        problems.add(e.getMessage());
      }
      return problems;
    }
  }

  /** An unresolved requirement as an admin reads it. */
  static String words(Requirement r) {
    String who =
        r.getResource() instanceof BundleRevision b
            ? b.getSymbolicName() + " " + b.getVersion()
            : String.valueOf(r.getResource());
    String filter = r.getDirectives().getOrDefault("filter", "");
    String what =
        switch (r.getNamespace()) {
          case BundleResource.PACKAGE -> "the package " + filter;
          case BundleResource.BUNDLE -> "the bundle " + filter;
          case BundleResource.HOST -> "the host bundle " + filter;
          case "osgi.extender" -> "the extender " + filter;
          case "osgi.ee" -> "the Java runtime " + filter;
          default -> "the capability " + r.getNamespace() + " " + filter;
        };
    return who
        + " needs "
        + what
        + ", which neither the bundles that keep running nor the package provide";
  }

  private static final class Context extends ResolveContext {
    private final List<Resource> mandatory;
    private final List<Capability> pool;
    private final Map<Resource, Wiring> wirings;
    private final Map<String, Filter> filters = new HashMap<>();

    Context(List<Resource> mandatory, List<Capability> pool, Map<Resource, Wiring> wirings) {
      this.mandatory = mandatory;
      this.pool = pool;
      this.wirings = wirings;
    }

    @Override
    public Collection<Resource> getMandatoryResources() {
      return mandatory;
    }

    @Override
    public List<Capability> findProviders(Requirement requirement) {
      String f = requirement.getDirectives().get("filter");
      Filter filter = null;
      if (f != null) {
        filter = filters.computeIfAbsent(f, DryRun::filter);
      }
      List<Capability> out = new ArrayList<>();
      for (Capability c : pool) {
        if (c.getNamespace().equals(requirement.getNamespace())
            && (filter == null || filter.matches(c.getAttributes()))) {
          out.add(c);
        }
      }
      return out;
    }

    @Override
    public int insertHostedCapability(List<Capability> capabilities, HostedCapability hosted) {
      capabilities.add(hosted);
      return capabilities.size() - 1;
    }

    @Override
    public boolean isEffective(Requirement requirement) {
      String e = requirement.getDirectives().get("effective");
      return e == null || "resolve".equals(e);
    }

    @Override
    public Map<Resource, Wiring> getWirings() {
      return wirings;
    }
  }

  private static Filter filter(String f) {
    try {
      return FrameworkUtil.createFilter(f);
    } catch (InvalidSyntaxException e) {
      throw new IllegalArgumentException("the requirement filter '" + f + "' is malformed", e);
    }
  }
}
