package io.bulwark.updates.internal;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.UiPage;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/**
 * The Updates page: the running version, the stick, upload, install progress, history, rollback.
 */
@Component(service = PageContributor.class)
public final class UpdatePages implements PageContributor {

  @Override
  public String resourceRoot() {
    return "/ui";
  }

  @Override
  public List<UiPage> pages() {
    return List.of(
        new UiPage(
            "updates",
            "Updates",
            "updates.js",
            Set.of(Role.ADMIN, Role.OPERATOR, Role.AUDITOR),
            80,
            true));
  }
}
