package io.bulwark.web.internal;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.UiPage;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/**
 * The web UI's own pages, contributed like any other bundle's: the fleet, a node, the findings, the
 * system's state, and for the roles that may use them users, API tokens, TLS and the audit log.
 */
@Component(service = PageContributor.class)
public final class CorePages implements PageContributor {
  static final String RESOURCE_ROOT = "/webroot/js";

  @Override
  public String resourceRoot() {
    return RESOURCE_ROOT;
  }

  @Override
  public List<UiPage> pages() {
    Set<Role> any = ApiRoute.ANY_ROLE;
    Set<Role> admin = Set.of(Role.ADMIN);
    return List.of(
        new UiPage("fleet", "Fleet", "fleet.js", any, 10, true),
        new UiPage("nodes", "Node", "node.js", any, 11, false),
        new UiPage("findings", "Findings", "findings.js", any, 20, true),
        new UiPage("system", "System", "system.js", any, 30, true),
        new UiPage("users", "Users", "users.js", admin, 100, true),
        new UiPage("tokens", "API tokens", "tokens.js", admin, 110, true),
        new UiPage("tls", "TLS", "tls.js", admin, 120, true),
        new UiPage("audit", "Audit", "audit.js", Set.of(Role.ADMIN, Role.AUDITOR), 130, true));
  }
}
