package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.AdminTls;
import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * {@code /api/v1/tls/certificate}: the admin certificate (every role) and its replacement (admins).
 * The audit log is bound dynamically: only an import waits for it.
 */
@Component(service = RouteContributor.class)
public final class TlsRoutes implements RouteContributor {
  private final ServiceSlot<AuditLog> audit =
      new ServiceSlot<>(() -> new AuditUnavailableException("the audit log is not running", null));
  private final List<ApiRoute> routes;

  @Activate
  public TlsRoutes(@Reference AdminTls tls) {
    TlsResource resource = new TlsResource(tls, audit);
    this.routes =
        List.of(
            ApiRoute.get("/api/v1/tls/certificate", ApiRoute.ANY_ROLE, resource::certificate),
            ApiRoute.post(
                "/api/v1/tls/certificate", Set.of(Role.ADMIN), resource::importCertificate));
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindAudit")
  void bindAudit(AuditLog log) {
    audit.set(log);
  }

  void unbindAudit(AuditLog log) {
    audit.clear(log);
  }

  @Override
  public String name() {
    return "tls";
  }

  @Override
  public List<ApiRoute> routes() {
    return routes;
  }
}
