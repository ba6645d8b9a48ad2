package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditExport;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.AdminTls;
import io.bulwark.api.security.TokenRepository;
import io.bulwark.api.security.UserRepository;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import java.time.Clock;
import java.util.Objects;

/**
 * The services the admin plane reads from: the health engine, the inventory, telemetry and its
 * targets, the framework's bundles, the security posture, the accounts, users, API tokens, audit
 * log and TLS identity, the notice banner, the price of a GPU-hour, the subsystems' self-reports,
 * and the clock that sets the telemetry windows. Handed to every resource.
 */
record AdminServices(
    HealthService health,
    FleetRepository fleet,
    TelemetryQuery telemetry,
    TelemetryTargets targets,
    BundleInventory bundles,
    SecurityPosture security,
    Accounts accounts,
    AuditLog audit,
    AuditExport auditExport,
    UserRepository users,
    TokenRepository tokens,
    AdminTls tls,
    String banner,
    GpuHourPrice price,
    SubsystemChecks subsystems,
    Clock clock) {

  AdminServices {
    Objects.requireNonNull(health, "health");
    Objects.requireNonNull(fleet, "fleet");
    Objects.requireNonNull(telemetry, "telemetry");
    Objects.requireNonNull(targets, "targets");
    Objects.requireNonNull(bundles, "bundles");
    Objects.requireNonNull(security, "security");
    Objects.requireNonNull(accounts, "accounts");
    Objects.requireNonNull(audit, "audit");
    Objects.requireNonNull(auditExport, "auditExport");
    Objects.requireNonNull(users, "users");
    Objects.requireNonNull(tokens, "tokens");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(banner, "banner");
    Objects.requireNonNull(price, "price");
    Objects.requireNonNull(subsystems, "subsystems");
    Objects.requireNonNull(clock, "clock");
  }
}
