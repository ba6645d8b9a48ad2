package io.bulwark.compliance.internal;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.UiPage;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/**
 * The Compliance page: the score by category per STIG, every rule with its status and evidence,
 * filters, and (for admins and auditors) the run of the checks and the signed exports.
 */
@Component(service = PageContributor.class)
public final class CompliancePages implements PageContributor {

  @Override
  public String resourceRoot() {
    return "/ui";
  }

  @Override
  public List<UiPage> pages() {
    return List.of(
        new UiPage(
            "compliance",
            "Compliance",
            "compliance.js",
            Set.of(Role.ADMIN, Role.OPERATOR, Role.AUDITOR),
            140,
            true));
  }
}
