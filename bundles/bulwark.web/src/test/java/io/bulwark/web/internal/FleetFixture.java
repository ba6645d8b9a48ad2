package io.bulwark.web.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.GpuCapacity;
import io.bulwark.api.health.Severity;
import io.bulwark.api.security.CryptoModuleStatus;
import io.bulwark.api.system.InboundConnections;
import io.bulwark.api.telemetry.DcgmField;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.testing.InMemoryFleet;
import io.bulwark.testing.InMemoryTelemetry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.osgi.framework.Bundle;

/**
 * A small fleet for the web tests. Node gpu-a01 has four GPUs: 0 sound, 1 with an open critical XID
 * finding, 2 with an open thermal-throttle warning, 3 installed but missing from telemetry. Node
 * gpu-a02 has two sound GPUs and one resolved finding. Telemetry covers the last five minutes, plus
 * one sample twenty minutes old.
 */
final class FleetFixture {
  static final NodeId A01 = NodeId.of("gpu-a01");
  static final NodeId A02 = NodeId.of("gpu-a02");
  static final String MODEL = "NVIDIA H100 80GB HBM3";

  final long now = System.currentTimeMillis();
  final InMemoryFleet fleet = new InMemoryFleet();
  final InMemoryHealth health = new InMemoryHealth();
  final InMemoryTelemetry telemetry = new InMemoryTelemetry();
  final List<TestFramework.TestBundle> bundles =
      List.of(
          new TestFramework.TestBundle(0, "org.apache.felix.framework", "7.0.5", Bundle.ACTIVE),
          new TestFramework.TestBundle(7, "bulwark.web", "0.1.0.SNAPSHOT", Bundle.ACTIVE),
          new TestFramework.TestBundle(8, "bulwark.sim", "0.1.0.SNAPSHOT", Bundle.RESOLVED));

  final Finding xid;
  final Finding thermal;
  final Finding resolved;

  FleetFixture() {
    Instant at = Instant.ofEpochMilli(now);
    fleet.put(new Node(A01, gpus(4), at.minusSeconds(3600), at));
    fleet.put(new Node(A02, gpus(2), at.minusSeconds(3600), at));
    telemetry.report(A01, gpus(3), now - 2_000);
    telemetry.report(A02, gpus(2), now - 1_000);
    for (int gpu = 0; gpu < 3; gpu++) {
      for (int s = 0; s < 60; s++) {
        long t = now - 300_000 + s * 5_000L;
        telemetry.add(A01, gpu, DcgmField.GPU_TEMP, t, 60 + gpu * 10 + s % 3);
        telemetry.add(A01, gpu, DcgmField.SM_CLOCK, t, gpu == 2 ? 1200 : 1980);
        telemetry.add(A01, gpu, DcgmField.POWER_USAGE, t, 650.5);
      }
      telemetry.add(A01, gpu, DcgmField.GPU_TEMP, now - 1_200_000, 40);
    }
    xid =
        finding(
            "f-xid",
            FindingKind.XID,
            A01,
            1,
            Severity.CRITICAL,
            at.minusSeconds(600),
            at.minusSeconds(5),
            null,
            "XID 79: GPU has fallen off the bus",
            "Drain the node and reseat or replace GPU 1.");
    thermal =
        finding(
            "f-thermal",
            FindingKind.THERMAL_THROTTLE,
            A01,
            2,
            Severity.WARNING,
            at.minusSeconds(240),
            at.minusSeconds(10),
            null,
            "HW thermal slowdown for 4 min, SM clock 1200 MHz",
            "Check airflow and fans.");
    resolved =
        finding(
            "f-old",
            FindingKind.POWER_THROTTLE,
            A02,
            0,
            Severity.WARNING,
            at.minusSeconds(3000),
            at.minusSeconds(2400),
            at.minusSeconds(2390),
            "Power brake asserted",
            "Check the PSU.");
    health.add(xid);
    health.add(thermal);
    health.add(resolved);
    health.detectors(List.of("xid", "thermal"));
    health.capacity(
        CapacityReport.of(
            at,
            List.of(
                new GpuCapacity(A01, 0, true, 1.0),
                new GpuCapacity(A01, 1, false, 0.0),
                new GpuCapacity(A01, 2, true, 0.7),
                new GpuCapacity(A01, 3, false, 0.0),
                new GpuCapacity(A02, 0, true, 1.0),
                new GpuCapacity(A02, 1, true, 0.9))));
    telemetry.target(
        new TargetStatus(
            new ScrapeTarget("10.0.0.11:9400", null, null, Map.of("rack", "r1")),
            TargetStatus.Health.UP,
            "gpu-a01",
            at.minusSeconds(2),
            1_500,
            812,
            "",
            3,
            "3 blank values (DCGM could not read the field; e.g. DCGM_FI_DEV_MEMORY_TEMP{gpu=\"0\"}:"
                + " DCGM's int64 blank)",
            TargetStatus.NAMING_DCGM4));
    telemetry.target(
        new TargetStatus(
            new ScrapeTarget("10.0.0.12:9400", "http", "/metrics", Map.of()),
            TargetStatus.Health.DOWN,
            "",
            null,
            0,
            0,
            "connection refused"));
  }

  static List<Gpu> gpus(int count) {
    return java.util.stream.IntStream.range(0, count)
        .mapToObj(i -> new Gpu(i, "GPU-0000000" + i, MODEL))
        .toList();
  }

  static Finding finding(
      String id,
      String kind,
      NodeId node,
      int gpu,
      Severity severity,
      Instant firstSeen,
      Instant lastSeen,
      Instant resolvedAt,
      String summary,
      String action) {
    return new Finding(
        id,
        kind,
        node,
        gpu,
        severity,
        resolvedAt == null ? FindingState.OPEN : FindingState.RESOLVED,
        firstSeen,
        lastSeen,
        resolvedAt,
        summary,
        Map.of("threshold", "85", "observed", "91"),
        action,
        severity == Severity.CRITICAL ? 1.0 : 0.7,
        12);
  }

  final FakeAccounts accounts = new FakeAccounts();
  final RecordingAuditLog audit = new RecordingAuditLog();
  final FakeAdministration.Export export = new FakeAdministration.Export();
  final FakeAdministration.Users users = new FakeAdministration.Users();
  final FakeAdministration.Tokens tokens = new FakeAdministration.Tokens();
  final FakeAdministration.Tls tls = new FakeAdministration.Tls();
  final SubsystemChecks subsystems = new SubsystemChecks();

  {
    accounts.use(users, audit);
  }

  final FixedCheck store = new FixedCheck("store");

  {
    subsystems.add(store);
    for (String name : List.of("audit", "telemetry", "engine")) {
      subsystems.add(new FixedCheck(name));
    }
  }

  final FindingTopic findings = new FindingTopic();

  /** The contributions of the plane {@link #start} started last. */
  Contributions contributions;

  /** The audit routes among them. */
  AuditRoutes auditRoutes;

  /** Returns the admin plane's contributions built on this fixture: every route, page and topic. */
  Contributions contributions(io.vertx.core.Vertx vertx, java.time.Duration capacityEvery) {
    java.time.Clock clock = java.time.Clock.systemUTC();
    Contributions c = new Contributions();
    FleetRoutes fleetRoutes =
        new FleetRoutes(health, fleet, telemetry, telemetry, new GpuHourPrice(2.5, "USD"), clock);
    fleetRoutes.bindAudit(audit);
    c.addRoutes(fleetRoutes);
    c.addRoutes(
        new SystemRoutes(
                new SecurityPosture(
                    () -> new CryptoModuleStatus("BouncyCastle FIPS", "2.1.0", true, true),
                    () -> false),
                subsystems,
                BundleInventory.of(TestFramework.context(bundles)),
                clock)
            .withHealth(health));
    c.addRoutes(new AccountRoutes(accounts, users, tokens, clock));
    TlsRoutes tlsRoutes = new TlsRoutes(tls);
    tlsRoutes.bindAudit(audit);
    c.addRoutes(tlsRoutes);
    auditRoutes = new AuditRoutes(audit, export);
    c.addRoutes(auditRoutes);
    ClassLoader loader = FleetFixture.class.getClassLoader();
    c.addPages(
        new CorePages(),
        "/ui/bulwark.web/",
        name -> loader.getResource(CorePages.RESOURCE_ROOT.substring(1) + "/" + name));
    c.addTopic(findings);
    c.addTopic(new CapacityTopic(vertx, health, telemetry, capacityEvery, clock));
    return c;
  }

  /** Starts the admin plane on plain HTTP with every contribution of this fixture. */
  WebServer start(io.vertx.core.Vertx vertx) {
    return start(vertx, Listener.plainHttp(new WebOptions("127.0.0.1", 0)));
  }

  /** Starts the admin plane with {@code listener} and every contribution of this fixture. */
  WebServer start(io.vertx.core.Vertx vertx, Listener listener) {
    return start(vertx, listener, EventHub.HEARTBEAT, CapacityTopic.EVERY);
  }

  /** Starts the admin plane with the event timings of a test. */
  WebServer start(
      io.vertx.core.Vertx vertx,
      Listener listener,
      java.time.Duration heartbeat,
      java.time.Duration capacityEvery) {
    return start(vertx, listener, heartbeat, capacityEvery, null);
  }

  /** Starts the admin plane with its connections guarded by {@code inbound}. */
  WebServer start(io.vertx.core.Vertx vertx, Listener listener, InboundConnections inbound) {
    return start(vertx, listener, EventHub.HEARTBEAT, CapacityTopic.EVERY, inbound);
  }

  private WebServer start(
      io.vertx.core.Vertx vertx,
      Listener listener,
      java.time.Duration heartbeat,
      java.time.Duration capacityEvery,
      InboundConnections inbound) {
    return new WebServer(
            vertx,
            accounts,
            subsystems,
            "Authorized use only.",
            listener,
            contributions = contributions(vertx, capacityEvery),
            heartbeat,
            inbound)
        .withAudit(audit);
  }
}
