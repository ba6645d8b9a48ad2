package io.bulwark.notify.internal;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.UiPage;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/** The Alerts page: the notification channels, their delivery state, "send test", and editing. */
@Component(service = PageContributor.class)
public final class NotifyPages implements PageContributor {

  @Override
  public String resourceRoot() {
    return "/ui";
  }

  @Override
  public List<UiPage> pages() {
    return List.of(
        new UiPage("alerts", "Alerts", "alerts.js", Set.of(Role.ADMIN, Role.OPERATOR), 40, true));
  }
}
