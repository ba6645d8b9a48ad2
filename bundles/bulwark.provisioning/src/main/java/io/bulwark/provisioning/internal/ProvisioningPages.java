package io.bulwark.provisioning.internal;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.UiPage;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/**
 * The Provisioning page: the image store, the machines the boot environment reported, deploy and
 * release.
 */
@Component(service = PageContributor.class)
public final class ProvisioningPages implements PageContributor {

  @Override
  public String resourceRoot() {
    return "/ui";
  }

  @Override
  public List<UiPage> pages() {
    return List.of(
        new UiPage(
            "provisioning",
            "Provisioning",
            "provisioning.js",
            Set.of(Role.ADMIN, Role.OPERATOR, Role.AUDITOR),
            35,
            true));
  }
}
