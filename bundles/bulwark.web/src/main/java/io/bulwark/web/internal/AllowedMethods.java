package io.bulwark.web.internal;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The methods each path of the router answers, for the {@code Allow} header and the message of a
 * 405: read from the router's routes the first time they are asked for (every route is added by
 * then), so that the answer names what the route table really holds.
 */
final class AllowedMethods {
  private final Router router;
  private volatile List<Entry> entries;

  AllowedMethods(Router router) {
    this.router = router;
  }

  /** Returns the methods some route answers at {@code path}, sorted; HEAD goes with GET. */
  Set<String> at(String path) {
    Set<String> methods = new TreeSet<>();
    for (Entry e : entries()) {
      if (e.pattern.matcher(path).matches()) {
        for (HttpMethod m : e.methods) {
          methods.add(m.name());
          if (m == HttpMethod.GET) {
            methods.add(HttpMethod.HEAD.name());
          }
        }
      }
    }
    return methods;
  }

  private List<Entry> entries() {
    List<Entry> current = entries;
    if (current == null) {
      current = new ArrayList<>();
      for (Route route : router.getRoutes()) {
        Set<HttpMethod> methods = route.methods();
        String path = route.getPath();
        if (methods == null || methods.isEmpty() || path == null) {
          continue; // routes for every method (headers, body) or by regex (the UI's files: GET)
        }
        current.add(new Entry(pattern(path), methods));
      }
      current.add(new Entry(Pattern.compile("/(?!api(?:/|$)).*"), Set.of(HttpMethod.GET)));
      entries = current;
    }
    return current;
  }

  /**
   * Turns a route path such as {@code /api/v1/nodes/:node} into a pattern of the paths it takes.
   */
  static Pattern pattern(String routePath) {
    StringJoiner regex = new StringJoiner("/");
    for (String part : routePath.split("/", -1)) {
      regex.add(part.startsWith(":") ? "[^/]+" : Pattern.quote(part));
    }
    return Pattern.compile(regex.toString());
  }

  private record Entry(Pattern pattern, Set<HttpMethod> methods) {}
}
