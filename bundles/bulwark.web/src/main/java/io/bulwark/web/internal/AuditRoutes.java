package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditExport;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.RouteContributor;
import java.util.List;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The audit log's routes, for auditors and admins: search ({@code /api/v1/audit}), the signed
 * export, its public key, and the chain check. They go and come with the audit bundle.
 */
@Component(service = RouteContributor.class)
public final class AuditRoutes implements RouteContributor {
  private final List<ApiRoute> routes;

  @Activate
  public AuditRoutes(@Reference AuditLog audit, @Reference AuditExport exports) {
    AuditResource search = new AuditResource(audit);
    AuditExportResource export = new AuditExportResource(audit, exports);
    Set<Role> auditors = Set.of(Role.ADMIN, Role.AUDITOR);
    this.routes =
        List.of(
            ApiRoute.get("/api/v1/audit", auditors, search::search),
            ApiRoute.get("/api/v1/audit/export", auditors, export::export),
            ApiRoute.get("/api/v1/audit/public-key", auditors, export::publicKey),
            ApiRoute.get("/api/v1/audit/verify", auditors, export::verify));
  }

  @Override
  public String name() {
    return "audit";
  }

  @Override
  public List<ApiRoute> routes() {
    return routes;
  }
}
