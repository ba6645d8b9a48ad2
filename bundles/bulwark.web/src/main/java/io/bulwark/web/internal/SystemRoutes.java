package io.bulwark.web.internal;

import io.bulwark.api.health.HealthService;
import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.SecretStore;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import java.time.Clock;
import java.util.List;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * {@code GET /api/v1/health}: the appliance's own state. Needs only the security bundle (the crypto
 * module and the secret store) and the subsystems' reports, so that it answers while any other
 * bundle is being updated; the health engine (for the list of detectors) is bound dynamically.
 */
@Component(service = RouteContributor.class)
public final class SystemRoutes implements RouteContributor {
  private final ServiceSlot<HealthService> health = new ServiceSlot<>(() -> null);
  private final List<ApiRoute> routes;

  @Activate
  public SystemRoutes(
      @Reference CryptoModule crypto,
      @Reference SecretStore secrets,
      @Reference SubsystemChecks subsystems,
      BundleContext context) {
    this(
        new SecurityPosture(crypto::status, secrets::sealedToTpm),
        subsystems,
        BundleInventory.of(context),
        Clock.systemUTC());
  }

  SystemRoutes(
      SecurityPosture security, SubsystemChecks subsystems, BundleInventory bundles, Clock clock) {
    HealthResource resource =
        new HealthResource(security, subsystems, bundles, health::orNull, clock);
    this.routes = List.of(ApiRoute.get("/api/v1/health", ApiRoute.ANY_ROLE, resource::health));
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindHealth")
  void bindHealth(HealthService service) {
    health.set(service);
  }

  void unbindHealth(HealthService service) {
    health.clear(service);
  }

  /** Sets the health engine (tests). */
  SystemRoutes withHealth(HealthService service) {
    health.set(service);
    return this;
  }

  @Override
  public String name() {
    return "system";
  }

  @Override
  public List<ApiRoute> routes() {
    return routes;
  }
}
