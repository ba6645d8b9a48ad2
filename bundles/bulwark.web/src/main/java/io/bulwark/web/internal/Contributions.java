package io.bulwark.web.internal;

import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.EventTopic;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.RouteContributor;
import io.bulwark.web.api.UiPage;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.URL;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * What the bundles contribute to the admin plane: routes, pages and event topics, gathered from the
 * whiteboard as they come and go, and the routes of contributors that went (answered 503 until they
 * return). A component of its own with no static references, so that contributions come and go
 * without restarting the web server, which hears of every change. Thread-safe.
 */
@Component(service = Contributions.class)
public final class Contributions {
  private static final Logger LOG = System.getLogger(Contributions.class.getName());

  /** A contributor's routes as they were read when it came. */
  record RouteSet(String name, List<ApiRoute> routes) {}

  /**
   * A contributor's pages: the URL prefix they are served under ({@code /ui/<bundle>/}), how to
   * find a file of its resource folder, and the pages.
   */
  record PageSet(String prefix, Function<String, URL> files, List<UiPage> pages) {}

  /** Hears of every change. */
  interface Listener {
    void routesChanged();

    void topicAdded(EventTopic topic);

    void topicRemoved(EventTopic topic);
  }

  private final Map<RouteContributor, RouteSet> routes = new ConcurrentHashMap<>();
  private final Map<String, RouteSet> departed = new ConcurrentHashMap<>();
  private final Map<PageContributor, PageSet> pages = new ConcurrentHashMap<>();
  private final Set<EventTopic> topics = ConcurrentHashMap.newKeySet();
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  @Reference(
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "removeRoutes")
  void addRoutes(RouteContributor contributor) {
    List<ApiRoute> list;
    String name;
    try {
      name = contributor.name();
      list = List.copyOf(contributor.routes());
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Ignored the routes of " + contributor.getClass().getName() + ": they cannot be read",
          e);
      return;
    }
    routes.put(contributor, new RouteSet(name, list));
    departed.remove(name);
    listeners.forEach(Listener::routesChanged);
  }

  void removeRoutes(RouteContributor contributor) {
    RouteSet gone = routes.remove(contributor);
    if (gone != null) {
      if (routes.values().stream().noneMatch(r -> r.name().equals(gone.name()))) {
        departed.put(gone.name(), gone);
      }
      listeners.forEach(Listener::routesChanged);
    }
  }

  @Reference(
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "removePages")
  void addPages(PageContributor contributor, ServiceReference<PageContributor> reference) {
    Bundle bundle = reference.getBundle();
    if (bundle == null) {
      return;
    }
    String root = trimmedRoot(contributor.resourceRoot());
    addPages(
        contributor,
        "/ui/" + bundle.getSymbolicName() + "/",
        name -> bundle.getEntry(root + "/" + name));
  }

  /** Adds a contributor's pages served under {@code prefix} from {@code files} (tests). */
  void addPages(PageContributor contributor, String prefix, Function<String, URL> files) {
    try {
      pages.put(contributor, new PageSet(prefix, files, List.copyOf(contributor.pages())));
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Ignored the pages of " + contributor.getClass().getName() + ": they cannot be read",
          e);
      return;
    }
    listeners.forEach(Listener::routesChanged);
  }

  void removePages(PageContributor contributor) {
    if (pages.remove(contributor) != null) {
      listeners.forEach(Listener::routesChanged);
    }
  }

  @Reference(
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "removeTopic")
  void addTopic(EventTopic topic) {
    if (topics.add(topic)) {
      listeners.forEach(l -> l.topicAdded(topic));
    }
  }

  void removeTopic(EventTopic topic) {
    if (topics.remove(topic)) {
      listeners.forEach(l -> l.topicRemoved(topic));
    }
  }

  /** Starts telling {@code listener} of changes; it gets the topics there are now at once. */
  void listen(Listener listener) {
    listeners.add(listener);
    topics.forEach(listener::topicAdded);
  }

  void unlisten(Listener listener) {
    listeners.remove(listener);
  }

  /** Returns the routes of the contributors there are, by contributor name. */
  List<RouteSet> routeSets() {
    List<RouteSet> sets = new ArrayList<>(routes.values());
    sets.sort(Comparator.comparing(RouteSet::name));
    return sets;
  }

  /** Returns the routes of contributors that went and have not come back. */
  List<RouteSet> departed() {
    return List.copyOf(departed.values());
  }

  /** Returns the page sets. */
  List<PageSet> pageSets() {
    List<PageSet> sets = new ArrayList<>(pages.values());
    sets.sort(Comparator.comparing(PageSet::prefix));
    return sets;
  }

  private static String trimmedRoot(String root) {
    String r = root == null ? "" : root.strip();
    while (r.endsWith("/")) {
      r = r.substring(0, r.length() - 1);
    }
    return r.startsWith("/") || r.isEmpty() ? r : "/" + r;
  }
}
