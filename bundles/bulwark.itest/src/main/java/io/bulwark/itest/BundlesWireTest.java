package io.bulwark.itest;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.health.CapacityLedger;
import io.bulwark.api.health.FindingRepository;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.AdminTls;
import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.SecretStore;
import io.bulwark.api.security.TokenRepository;
import io.bulwark.api.security.UserRepository;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.vertx.core.Vertx;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkUtil;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.common.annotation.InjectService;
import org.osgi.test.junit5.context.BundleContextExtension;
import org.osgi.test.junit5.service.ServiceExtension;

/**
 * Given the appliance bundles in Felix, every bundle is active and every contract has its provider.
 */
@ExtendWith({BundleContextExtension.class, ServiceExtension.class})
class BundlesWireTest {

  @InjectBundleContext BundleContext context;

  @Test
  void everyBulwarkBundleIsActive() {
    List<Bundle> ours =
        Arrays.stream(context.getBundles())
            .filter(b -> b.getSymbolicName().startsWith("bulwark."))
            .toList();
    assertThat(ours)
        .extracting(Bundle::getSymbolicName)
        .contains(
            "bulwark.api",
            "bulwark.lib.vertx",
            "bulwark.runtime",
            "bulwark.store",
            "bulwark.inventory",
            "bulwark.telemetry",
            "bulwark.health",
            "bulwark.health.dcgm",
            "bulwark.web",
            "bulwark.sim");
    assertThat(ours)
        .allSatisfy(
            b ->
                assertThat(b.getState())
                    .as("state of %s", b.getSymbolicName())
                    .isEqualTo(Bundle.ACTIVE));
  }

  @Test
  void everyContractHasAProviderInTheBundleOfItsArea(
      @InjectService(timeout = 10_000) RecordStore store,
      @InjectService(timeout = 10_000) FleetRepository fleet,
      @InjectService(timeout = 10_000) FindingRepository findings,
      @InjectService(timeout = 10_000) CapacityLedger capacity,
      @InjectService(timeout = 10_000) UserRepository users,
      @InjectService(timeout = 10_000) TokenRepository tokens,
      @InjectService(timeout = 10_000) TelemetryQuery telemetry,
      @InjectService(timeout = 10_000) TelemetryTargets targets,
      @InjectService(timeout = 10_000) HealthService health,
      @InjectService(timeout = 10_000) Vertx vertx) {
    assertThat(bundleOf(store)).isEqualTo("bulwark.store");
    assertThat(bundleOf(fleet)).isEqualTo("bulwark.inventory");
    assertThat(bundleOf(findings)).isEqualTo("bulwark.health");
    assertThat(bundleOf(capacity)).isEqualTo("bulwark.health");
    assertThat(bundleOf(users)).isEqualTo("bulwark.security");
    assertThat(bundleOf(tokens)).isEqualTo("bulwark.security");
    assertThat(telemetry.getClass().getName()).startsWith("io.bulwark.telemetry.");
    assertThat(targets.getClass().getName()).startsWith("io.bulwark.telemetry.");
    assertThat(health.getClass().getName()).startsWith("io.bulwark.health.");
    assertThat(vertx).isNotNull();
  }

  @Test
  void theSecurityServicesAreUpInApprovedOnlyMode(
      @InjectService(timeout = 10_000) CryptoModule crypto,
      @InjectService(timeout = 10_000) SecretStore secrets,
      @InjectService(timeout = 10_000) AdminTls tls,
      @InjectService(timeout = 10_000) AuditLog audit,
      @InjectService(timeout = 10_000) Accounts accounts) {
    assertThat(crypto.status().approvedOnly()).isTrue();
    assertThat(crypto.status().selfTestsPassed()).isTrue();
    // The in-framework runtime has no TPM: the flagged development mode.
    assertThat(secrets.sealedToTpm()).isFalse();
    assertThat(tls.protocols()).containsExactlyInAnyOrder("TLSv1.3", "TLSv1.2");
    assertThat(audit.verify().intact()).isTrue();
    assertThat(accounts.getClass().getName()).startsWith("io.bulwark.security.");
  }

  private static String bundleOf(Object service) {
    return FrameworkUtil.getBundle(service.getClass()).getSymbolicName();
  }

  @Test
  void theDetectorsOfEveryFirstFindingKindTakePart(
      @InjectService(timeout = 10_000) HealthService health) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (health.detectors().size() < 5 && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
    }
    assertThat(health.detectors()).hasSizeGreaterThanOrEqualTo(5);
  }
}
