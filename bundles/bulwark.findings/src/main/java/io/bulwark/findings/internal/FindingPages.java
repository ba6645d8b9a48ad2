package io.bulwark.findings.internal;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.UiPage;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/** The finding page ({@code #/finding/<id>}, reached from the findings) and Maintenance. */
@Component(service = PageContributor.class)
public final class FindingPages implements PageContributor {

  @Override
  public String resourceRoot() {
    return "/ui";
  }

  @Override
  public List<UiPage> pages() {
    return List.of(
        new UiPage("finding", "Finding", "finding.js", ApiRoute.ANY_ROLE, 21, false),
        new UiPage(
            "maintenance",
            "Maintenance",
            "maintenance.js",
            Set.of(Role.ADMIN, Role.OPERATOR, Role.AUDITOR),
            25,
            true));
  }
}
