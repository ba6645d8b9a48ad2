package io.bulwark.machines.internal;

import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.UiPage;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/** The Machines page ({@code #/machines}) and a machine's page ({@code #/machine/<id>}). */
@Component(service = PageContributor.class)
public final class MachinePages implements PageContributor {

  @Override
  public String resourceRoot() {
    return "/ui";
  }

  @Override
  public List<UiPage> pages() {
    return List.of(
        new UiPage("machines", "Machines", "machines.js", ApiRoute.ANY_ROLE, 12, true),
        new UiPage("machine", "Machine", "machine.js", ApiRoute.ANY_ROLE, 13, false));
  }
}
