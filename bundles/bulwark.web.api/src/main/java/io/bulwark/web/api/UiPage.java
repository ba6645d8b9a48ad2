package io.bulwark.web.api;

import io.bulwark.api.security.Role;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A page of the web UI: the route it answers ({@code #/<id>}), its title in the navigation, the
 * JavaScript module that draws it (a path inside the contributing bundle's {@linkplain
 * PageContributor#resourceRoot() resource folder}), the roles that may open it, and where it goes
 * in the navigation. The module exports {@code mount(view, params, navigate, session)}, which
 * returns an object with {@code refresh()}, {@code onEvent(topic, data)} and {@code unmount()}; it
 * imports the UI's shared modules from {@code /js/} (e.g. {@code /js/api.js}, {@code /js/dom.js}).
 *
 * @param id the page's route and key: lower case, e.g. {@code machines}
 * @param title what the navigation shows
 * @param module the module's path in the resource folder, e.g. {@code machines.js}
 * @param roles who may open it; never empty
 * @param order where it goes in the navigation (smaller first)
 * @param navigation false for a page reached only by link (a machine's detail page)
 */
public record UiPage(
    String id, String title, String module, Set<Role> roles, int order, boolean navigation) {
  private static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]{0,31}");
  private static final Pattern MODULE = Pattern.compile("[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\\.js");

  /**
   * @throws IllegalArgumentException if the id, module or roles are unusable
   */
  public UiPage {
    Objects.requireNonNull(title, "title");
    if (id == null || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException("a page id is 1-32 of a-z, 0-9 and '-', not '" + id + "'");
    }
    if (module == null || !MODULE.matcher(module).matches()) {
      throw new IllegalArgumentException(
          "a page's module is a relative path to a .js file, not '" + module + "'");
    }
    if (roles == null || roles.isEmpty()) {
      throw new IllegalArgumentException("the page " + id + " admits no role");
    }
    roles = Set.copyOf(roles);
  }
}
