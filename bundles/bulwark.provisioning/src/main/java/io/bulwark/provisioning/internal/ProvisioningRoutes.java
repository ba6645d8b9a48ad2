package io.bulwark.provisioning.internal;

import io.bulwark.api.machine.MachineId;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code GET /api/v1/machines/:machine/hardware}: what the boot environment last reported of a
 * machine (its inventory, and the hardware tests of its last commissioning or testing with their
 * exit status and output).
 */
@Component(service = RouteContributor.class)
public final class ProvisioningRoutes implements RouteContributor {
  private final Provisioning provisioning;

  @Activate
  public ProvisioningRoutes(@Reference Provisioning provisioning) {
    this.provisioning = provisioning;
  }

  @Override
  public String name() {
    return "provisioning";
  }

  @Override
  public List<ApiRoute> routes() {
    return List.of(
        ApiRoute.get("/api/v1/machines/:machine/hardware", ApiRoute.ANY_ROLE, this::hardware));
  }

  private void hardware(RoutingContext ctx) {
    String id = ctx.pathParam("machine");
    if (!MachineId.isValid(id)) {
      throw ApiProblem.invalidParameter("machine", "'" + id + "' is not a machine id");
    }
    HardwareRecord r =
        provisioning
            .hardware(MachineId.of(id))
            .orElseThrow(
                () ->
                    ApiProblem.notFound(
                        "no boot environment has reported the hardware of "
                            + id
                            + " yet: enlist or commission it"));
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("machine", r.machine())
            .put("reportedBy", r.purpose())
            .put("at", r.at().toString())
            .put("passed", r.passed())
            .put("inventory", new JsonObject(r.inventory()))
            .put("tests", new JsonArray(r.results())));
  }
}
