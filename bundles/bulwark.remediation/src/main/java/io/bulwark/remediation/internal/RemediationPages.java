package io.bulwark.remediation.internal;

import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.UiPage;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/**
 * The Remediation page ({@code #/remediation}) and a run's page ({@code #/remediation-run/<id>}).
 */
@Component(service = PageContributor.class)
public final class RemediationPages implements PageContributor {

  @Override
  public String resourceRoot() {
    return "/ui";
  }

  @Override
  public List<UiPage> pages() {
    return List.of(
        new UiPage("remediation", "Remediation", "remediation.js", ApiRoute.ANY_ROLE, 14, true),
        new UiPage("remediation-run", "Remediation run", "run.js", ApiRoute.ANY_ROLE, 15, false));
  }
}
