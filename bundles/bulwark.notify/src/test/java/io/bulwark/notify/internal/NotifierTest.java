package io.bulwark.notify.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingRepository;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.health.Severity;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.notify.api.ChannelConfig;
import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.ChannelSetting;
import io.bulwark.notify.api.ChannelType;
import io.bulwark.notify.api.DeliveryException;
import io.bulwark.notify.api.Notification;
import io.bulwark.notify.api.Notification.Event;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.TypedConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The notification core on a real store: what is news to a channel, what a receiver that is away
 * costs (nothing lost, across a restart too), deduplication, the outbox's bound, and that the
 * health engine's call never waits for a receiver. The receiver is a test channel type that records
 * what it is handed; the channel bundles are tested against real receivers on their own.
 */
class NotifierTest {
  @TempDir Path dir;

  private final Findings findings = new Findings();
  private final Recorder recorder = new Recorder();

  @Test
  void sendsOpeningsSeverityChangesAndResolutionsButNotRefreshes() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      try {
        n.bindType(recorder);
        n.save(channel("ops", Severity.WARNING), null);
        Finding f = finding("f1", Severity.WARNING);
        tell(n, f);
        await(() -> recorder.events().size() == 1);
        tell(n, refreshed(f, 2));
        Finding worse = withSeverity(refreshed(f, 3), Severity.CRITICAL);
        tell(n, worse);
        await(() -> recorder.events().size() == 2);
        tell(n, finding("f2", Severity.INFO));
        Finding resolved = worse.resolve(Instant.parse("2026-12-02T10:05:00Z"));
        tell(n, resolved);
        await(() -> recorder.events().size() >= 3);
        Thread.sleep(300);
        assertEquals(List.of(Event.OPENED, Event.CHANGED, Event.RESOLVED), recorder.events());
        assertEquals(Severity.CRITICAL, recorder.delivered.get(1).finding().severity());
        assertEquals(0, n.views().get(0).waiting());
        assertEquals(3, n.views().get(0).status().delivered());
      } finally {
        n.deactivate();
      }
    }
  }

  @Test
  void aReceiverAwayLosesNothingAcrossARestartAndNothingIsSentTwiceAsNew() throws Exception {
    recorder.failing = true;
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      n.bindType(recorder);
      n.save(channel("siem", Severity.WARNING), null);
      tell(n, finding("a", Severity.CRITICAL));
      tell(n, finding("b", Severity.WARNING));
      await(() -> n.views().get(0).waiting() == 2 && recorder.attempts.get() > 0);
      assertEquals(SubsystemState.DEGRADED, n.status().state());
      assertTrue(n.status().summary().contains("siem"), n.status().summary());
      assertTrue(n.status().summary().contains("receiver down"), n.status().summary());
      n.deactivate();
    }
    recorder.failing = false;
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      try {
        n.bindType(recorder);
        await(() -> recorder.delivered.size() >= 2);
        // The engine tells the restarted appliance about its open findings again: not news.
        tell(n, refreshed(finding("a", Severity.CRITICAL), 5));
        Thread.sleep(500);
        assertEquals(List.of(Event.OPENED, Event.OPENED), recorder.events());
        assertEquals(
            Set.of("a", "b"),
            Set.copyOf(recorder.delivered.stream().map(d -> d.finding().id()).toList()));
        assertEquals(SubsystemState.UP, n.status().state());
      } finally {
        n.deactivate();
      }
    }
  }

  @Test
  void aFindingThatResolvedWhileTheApplianceWasDownIsResolvedAtStart() throws Exception {
    Finding f = finding("gone", Severity.CRITICAL);
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      n.bindType(recorder);
      n.save(channel("ops", Severity.WARNING), null);
      findings.open.put(f.id(), f);
      tell(n, f);
      await(() -> recorder.delivered.size() == 1);
      n.deactivate();
    }
    findings.open.remove(f.id());
    findings.stored.put(f.id(), f.resolve(Instant.parse("2026-12-02T11:00:00Z")));
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      try {
        n.bindType(recorder);
        await(() -> recorder.delivered.size() == 2);
        assertEquals(List.of(Event.OPENED, Event.RESOLVED), recorder.events());
      } finally {
        n.deactivate();
      }
    }
  }

  @Test
  void aFindingThatOpensAndResolvesWhileTheReceiverIsAwayIsSentOnceAsResolved() throws Exception {
    recorder.failing = true;
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      try {
        n.bindType(recorder);
        n.save(channel("ops", Severity.WARNING), null);
        Finding f = finding("flap", Severity.WARNING);
        tell(n, f);
        await(() -> recorder.attempts.get() > 0);
        tell(n, f.resolve(Instant.parse("2026-12-02T10:01:00Z")));
        await(() -> n.views().get(0).waiting() == 1 && n.outbox().told("ops", "flap") == null);
        recorder.failing = false;
        await(() -> recorder.delivered.size() >= 1);
        Thread.sleep(200);
        assertEquals(List.of(Event.RESOLVED), recorder.events());
      } finally {
        n.deactivate();
      }
    }
  }

  @Test
  void theOutboxKeepsTheNewestUpToItsBoundAndCountsWhatItDropped() throws Exception {
    recorder.failing = true;
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      try {
        n.bindType(recorder);
        n.save(channel("ops", Severity.WARNING), null);
        // One a second, as the engine would see them: a reconciliation running while they arrive
        // queues the ones it finds in that order too.
        for (int i = 0; i < 150; i++) {
          tell(n, seenAt(finding("f" + i, Severity.WARNING), i));
        }
        await(() -> n.views().get(0).dropped() == 50);
        assertEquals(100, n.views().get(0).waiting());
        recorder.failing = false;
        n.test("ops", "admin").get(10, TimeUnit.SECONDS);
        await(() -> recorder.delivered.size() >= 101);
        assertEquals(Event.TEST, recorder.delivered.get(0).event());
        Thread.sleep(200);
        assertEquals(101, recorder.delivered.size());
        // The oldest went; the newest stay.
        Set<String> ids =
            Set.copyOf(recorder.delivered.stream().map(d -> d.finding().id()).toList());
        for (int i = 100; i < 150; i++) {
          assertTrue(ids.contains("f" + i), "f" + i + " was dropped");
        }
      } finally {
        n.deactivate();
      }
    }
  }

  @Test
  void aReconciliationQueuesWhatItFindsInTheOrderItChangedSoTheBoundTrimsTheOldest()
      throws Exception {
    recorder.failing = true;
    // Open findings the channel never heard of (stored while the appliance was down): the next
    // reconciliation queues them. The repository hands them out in hash order.
    for (int i = 0; i < 150; i++) {
      Finding f = seenAt(finding("r" + i, Severity.WARNING), i);
      findings.open.put(f.id(), f);
      findings.stored.put(f.id(), f);
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      try {
        n.bindType(recorder);
        n.save(channel("ops", Severity.WARNING), null);
        await(() -> n.views().get(0).dropped() == 50);
        recorder.failing = false;
        await(() -> recorder.delivered.size() >= 100);
        Thread.sleep(200);
        List<String> ids = recorder.delivered.stream().map(d -> d.finding().id()).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 50; i < 150; i++) {
          expected.add("r" + i);
        }
        assertEquals(expected, ids);
      } finally {
        n.deactivate();
      }
    }
  }

  @Test
  void theHealthEnginesCallNeverWaitsForAReceiverThatHangs() throws Exception {
    recorder.hang = new CountDownLatch(1);
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100_000);
      try {
        n.bindType(recorder);
        n.save(channel("ops", Severity.WARNING), null);
        tell(n, finding("first", Severity.CRITICAL));
        await(() -> recorder.attempts.get() == 1);
        long t0 = System.nanoTime();
        for (int i = 0; i < 5_000; i++) {
          n.findingChanged(finding("x" + i, Severity.WARNING));
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        // 5,000 calls while the only channel's receiver hangs: they return (a queue offer each).
        assertTrue(millis < 2_000, millis + " ms");
        await(() -> n.views().get(0).waiting() >= 5_000);
      } finally {
        recorder.hang.countDown();
        n.deactivate();
      }
    }
  }

  @Test
  void aChannelWhoseTypeIsMissingWaitsAndSaysWhy() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      try {
        n.bindType(recorder);
        n.save(channel("ops", Severity.WARNING), null);
        n.unbindType(recorder);
        tell(n, finding("w", Severity.CRITICAL));
        await(() -> n.views().get(0).waiting() == 1);
        assertFalse(n.views().get(0).delivering());
        assertTrue(n.status().summary().contains("not installed"), n.status().summary());
        n.bindType(recorder);
        await(() -> recorder.delivered.size() == 1);
      } finally {
        n.deactivate();
      }
    }
  }

  @Test
  void aFindingUnderMaintenanceIsNotNotifiedUntilTheHoldEnds() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean held =
        new java.util.concurrent.atomic.AtomicBoolean(true);
    io.bulwark.api.health.Maintenance windows =
        new io.bulwark.api.health.Maintenance() {
          @Override
          public List<io.bulwark.api.health.MaintenanceWindow> windows(Instant at) {
            return List.of();
          }

          @Override
          public boolean covers(Finding f, Instant at) {
            return held.get() && f.node().value().equals("dgx-busy");
          }
        };
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      try {
        n.bindType(recorder);
        n.bindMaintenance(windows);
        n.save(channel("ops", Severity.WARNING), null);
        Finding f = finding("busy", Severity.CRITICAL);
        f =
            new Finding(
                f.id(),
                f.kind(),
                new NodeId("dgx-busy"),
                f.gpu(),
                f.severity(),
                f.state(),
                f.firstSeen(),
                f.lastSeen(),
                null,
                f.summary(),
                f.evidence(),
                f.recommendedAction(),
                f.performanceFactor(),
                f.occurrences(),
                f.gpuUuid());
        tell(n, f);
        tell(n, finding("other", Severity.CRITICAL));
        await(() -> recorder.delivered.size() == 1);
        Thread.sleep(500);
        assertEquals("other", recorder.delivered.get(0).finding().id());
        // The window ends with the finding still open: the next reconciliation sends it.
        held.set(false);
        await(() -> recorder.delivered.size() == 2);
        assertEquals("busy", recorder.delivered.get(1).finding().id());
        assertEquals(Event.OPENED, recorder.delivered.get(1).event());
      } finally {
        n.deactivate();
      }
    }
  }

  @Test
  void aNoticeGoesToTheChannelNamedForItsAudienceAndThoseCarryingTheFindingAndSurvivesARestart()
      throws Exception {
    Finding f = finding("hot", Severity.WARNING);
    recorder.failing = true;
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      n.bindType(recorder);
      // facilities and pager carry only critical findings; ops carries warnings too.
      n.save(channel("facilities", Severity.CRITICAL), null);
      n.save(channel("ops", Severity.WARNING), null);
      n.save(channel("pager", Severity.CRITICAL), null);
      tell(n, f);
      await(() -> n.views().stream().mapToLong(v -> v.waiting()).sum() == 1);
      List<String> to = n.tell("run-1:notify:facilities", "facilities", f, "dgx-a07 is drained");
      assertEquals(List.of("facilities", "ops"), to);
      // Told again (a step re-checked after a restart): it replaces the waiting one.
      n.tell("run-1:notify:facilities", "facilities", f, "dgx-a07 is drained");
      await(() -> recorder.attempts.get() > 0);
      n.deactivate();
    }
    recorder.failing = false;
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      try {
        n.bindType(recorder);
        await(() -> recorder.delivered.size() >= 3);
        Thread.sleep(300);
        // The finding's own opening went to ops, and the notice, not folded into it, too.
        assertEquals(
            Set.of("ops OPENED hot", "ops NOTICE hot", "facilities NOTICE hot"),
            Set.copyOf(recorder.via));
        assertEquals(3, recorder.via.size(), recorder.via.toString());
        Notification notice =
            recorder.delivered.stream().filter(d -> d.event() == Event.NOTICE).findFirst().get();
        assertEquals("run-1:notify:facilities", notice.id());
        assertEquals("dgx-a07 is drained", notice.notice());
        assertTrue(notice.subject().startsWith("NOTICE xid on "), notice.subject());
        assertTrue(notice.subject().endsWith(": dgx-a07 is drained"), notice.subject());
        assertEquals(
            List.of(),
            n.tell("run-2:notify:nobody", "nobody", finding("cool", Severity.INFO), "fyi"));
      } finally {
        n.deactivate();
      }
    }
  }

  @Test
  void routesBySeverityKindAndNodeLabel() {
    Route r = new Route(Severity.WARNING, Set.of("xid"), Map.of("rack", Set.of("a1", "a2")), true);
    Finding xid =
        new Finding(
            "1",
            "xid",
            new NodeId("n1"),
            0,
            Severity.CRITICAL,
            FindingState.OPEN,
            Instant.EPOCH,
            Instant.EPOCH,
            null,
            "s",
            Map.of(),
            "",
            1.0,
            1,
            "");
    assertTrue(r.matches(xid, Map.of("rack", "a2")));
    assertFalse(r.matches(xid, Map.of("rack", "b1")));
    assertFalse(r.matches(xid, Map.of()));
    assertFalse(r.matches(withSeverity(xid, Severity.INFO), Map.of("rack", "a1")));
  }

  @Test
  void alertPathChecksAreOpenUntilAChannelThatCarriesTheFindingHasDelivered() throws Exception {
    java.util.function.DoubleFunction<io.bulwark.api.system.SubsystemCheck> audit =
        warn ->
            () ->
                new io.bulwark.api.system.SubsystemStatus(
                    "audit",
                    SubsystemState.UP,
                    "the audit log is healthy",
                    "",
                    Instant.EPOCH,
                    Map.of("bulwark_audit_warn_ratio", warn, "bulwark_audit_used_ratio", 0.01));
    Instant now = Instant.parse("2026-12-04T12:00:00Z");
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      Notifier n = notifier(store, 100);
      try {
        n.bindType(recorder);
        List<io.bulwark.api.system.SubsystemCheck> subsystems = List.of(audit.apply(0.75));
        var none = AlertPathChecks.run(AlertPathChecks.AUDIT_FAILURE, n, subsystems, now);
        assertEquals(io.bulwark.api.compliance.CheckStatus.OPEN, none.status());
        assertTrue(none.summary().contains("no enabled alert channel"), none.summary());
        assertEquals("none", none.evidence().get("channelsThatDeliver"));

        n.save(channel("isso-pager", Severity.CRITICAL), null);
        var silent = AlertPathChecks.run(AlertPathChecks.AUDIT_FAILURE, n, subsystems, now);
        assertEquals(io.bulwark.api.compliance.CheckStatus.OPEN, silent.status());
        assertTrue(
            silent.evidence().get("channelsNotYetDelivering").contains("isso-pager"),
            silent.evidence().toString());

        tell(n, finding("x", Severity.CRITICAL));
        await(() -> recorder.delivered.size() == 1);
        var met = AlertPathChecks.run(AlertPathChecks.AUDIT_FAILURE, n, subsystems, now);
        assertEquals(
            io.bulwark.api.compliance.CheckStatus.NOT_A_FINDING, met.status(), met.summary());
        assertTrue(met.evidence().get("channelsThatDeliver").startsWith("isso-pager (recorder)"));
        // The channel carries critical findings only: the 75% warning does not reach it.
        var warning = AlertPathChecks.run(AlertPathChecks.AUDIT_STORAGE, n, subsystems, now);
        assertEquals(io.bulwark.api.compliance.CheckStatus.OPEN, warning.status());
        assertEquals("75", warning.evidence().get("auditWarnPercent"));

        n.save(channel("isso-pager", Severity.WARNING), null);
        assertEquals(
            io.bulwark.api.compliance.CheckStatus.NOT_A_FINDING,
            AlertPathChecks.run(AlertPathChecks.AUDIT_STORAGE, n, subsystems, now).status());
        var late =
            AlertPathChecks.run(AlertPathChecks.AUDIT_STORAGE, n, List.of(audit.apply(0.9)), now);
        assertEquals(io.bulwark.api.compliance.CheckStatus.OPEN, late.status());
        assertTrue(late.summary().contains("warns at 90% of its quota"), late.summary());
      } finally {
        n.deactivate();
      }
    }
  }

  // ---- fixtures ----

  private void tell(Notifier n, Finding f) {
    if (f.isOpen()) {
      findings.open.put(f.id(), f);
    } else {
      findings.open.remove(f.id());
    }
    findings.stored.put(f.id(), f);
    n.findingChanged(f);
  }

  private Notifier notifier(MapDbRecordStore store, int maxWaiting) {
    return new Notifier(
        store,
        new io.bulwark.testing.InMemorySecrets(),
        findings,
        TypedConfig.of(
            NotifyConfig.class,
            Map.of(
                "applianceName",
                "bulwark-test",
                "maxWaitingPerChannel",
                maxWaiting,
                "reconcileSeconds",
                5)),
        java.time.Clock.systemUTC());
  }

  private static ChannelDefinition channel(String name, Severity min) {
    return new ChannelDefinition(
        name,
        "recorder",
        Map.of(),
        new Route(min, Set.of(), Map.of(), true),
        true,
        false,
        "admin",
        Instant.now());
  }

  private static Finding finding(String id, Severity severity) {
    Instant t = Instant.parse("2026-12-02T10:00:00Z");
    return new Finding(
        id,
        "xid",
        new NodeId("dgx-" + id),
        1,
        severity,
        FindingState.OPEN,
        t,
        t,
        null,
        "XID 79 on GPU 1",
        Map.of("xid", "79"),
        "drain the node",
        0.0,
        1,
        "");
  }

  private static Finding seenAt(Finding f, long secondsLater) {
    Instant at = f.firstSeen().plusSeconds(secondsLater);
    return new Finding(
        f.id(),
        f.kind(),
        f.node(),
        f.gpu(),
        f.severity(),
        f.state(),
        at,
        at,
        f.resolvedAt(),
        f.summary(),
        f.evidence(),
        f.recommendedAction(),
        f.performanceFactor(),
        f.occurrences(),
        f.gpuUuid());
  }

  private static Finding refreshed(Finding f, long occurrences) {
    return new Finding(
        f.id(),
        f.kind(),
        f.node(),
        f.gpu(),
        f.severity(),
        f.state(),
        f.firstSeen(),
        f.lastSeen().plusSeconds(occurrences),
        null,
        f.summary(),
        f.evidence(),
        f.recommendedAction(),
        f.performanceFactor(),
        occurrences,
        f.gpuUuid());
  }

  private static Finding withSeverity(Finding f, Severity s) {
    return new Finding(
        f.id(),
        f.kind(),
        f.node(),
        f.gpu(),
        s,
        f.state(),
        f.firstSeen(),
        f.lastSeen(),
        f.resolvedAt(),
        f.summary(),
        f.evidence(),
        f.recommendedAction(),
        f.performanceFactor(),
        f.occurrences(),
        f.gpuUuid());
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting");
      }
      Thread.sleep(20);
    }
  }

  /** A channel type that records what it is handed; fails or hangs on demand. */
  static final class Recorder implements ChannelType {
    final List<Notification> delivered = Collections.synchronizedList(new ArrayList<>());

    /** "channel EVENT finding" for each delivered notification, in delivery order. */
    final List<String> via = Collections.synchronizedList(new ArrayList<>());

    final java.util.concurrent.atomic.AtomicInteger attempts =
        new java.util.concurrent.atomic.AtomicInteger();
    volatile boolean failing;
    volatile CountDownLatch hang;

    List<Event> events() {
      synchronized (delivered) {
        return delivered.stream().map(Notification::event).toList();
      }
    }

    @Override
    public String type() {
      return "recorder";
    }

    @Override
    public List<ChannelSetting> settings() {
      return List.of();
    }

    @Override
    public ChannelSender open(ChannelConfig config) {
      return new ChannelSender() {
        @Override
        public void send(List<Notification> batch) throws DeliveryException {
          attempts.incrementAndGet();
          CountDownLatch h = hang;
          if (h != null) {
            try {
              h.await();
            } catch (InterruptedException e) {
              throw new DeliveryException("interrupted", e);
            }
          }
          if (failing) {
            throw new DeliveryException("receiver down", null);
          }
          synchronized (delivered) {
            delivered.addAll(batch);
            batch.forEach(n -> via.add(config.name() + " " + n.event() + " " + n.finding().id()));
          }
        }

        @Override
        public int maxBatch() {
          return 500;
        }
      };
    }
  }

  /** The engine's findings as the notifier reads them: the open ones, and any by id. */
  static final class Findings implements HealthService, FindingRepository {
    final Map<String, Finding> open = new ConcurrentHashMap<>();
    final Map<String, Finding> stored = new ConcurrentHashMap<>();

    @Override
    public List<Finding> findings(FindingQuery query) {
      return open.values().stream().filter(query::matches).toList();
    }

    @Override
    public CapacityReport capacity() {
      throw new UnsupportedOperationException();
    }

    @Override
    public List<String> detectors() {
      return List.of();
    }

    @Override
    public void save(Finding finding) {
      stored.put(finding.id(), finding);
    }

    @Override
    public Optional<Finding> get(String id) {
      return Optional.ofNullable(stored.get(id));
    }

    @Override
    public List<Finding> find(FindingQuery query) {
      return stored.values().stream().filter(query::matches).toList();
    }
  }
}
