package io.bulwark.remediation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import io.bulwark.api.remediation.Guardrails;
import io.bulwark.api.remediation.Policy;
import io.bulwark.api.remediation.PolicyMode;
import io.bulwark.api.remediation.PolicyStep;
import io.bulwark.api.remediation.RemediationStep;
import io.bulwark.api.remediation.Run;
import io.bulwark.api.remediation.RunState;
import io.bulwark.api.remediation.StepContext;
import io.bulwark.api.remediation.StepOutcome;
import io.bulwark.api.remediation.StepStatus;
import io.bulwark.api.scheduler.SchedulerState;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.RecordingAuditLog;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RemediationEngineTest {
  @TempDir Path dir;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T10:00:00Z"));
  private final RecordingAuditLog audit = new RecordingAuditLog();
  private final FakeScheduler slurm = new FakeScheduler(40, "gpu");
  private final AtomicInteger performed = new AtomicInteger();

  private RemediationEngine engine(MapDbRecordStore store, PolicyMode mode) {
    Schedulers schedulers = new Schedulers();
    schedulers.bind(slurm);
    RemediationEngine e =
        new RemediationEngine(store, schedulers, audit, clock, Runnable::run, mode, 0, 100);
    io.bulwark.testing.InMemoryFleet fleet = new io.bulwark.testing.InMemoryFleet();
    for (String n : slurm.nodes.keySet()) {
      fleet.put(
          new io.bulwark.api.fleet.Node(new NodeId(n), List.of(), Instant.EPOCH, Instant.EPOCH));
    }
    e.bindFleet(fleet);
    e.bindStep(new SchedulerSteps.Drain(schedulers));
    e.bindStep(new SchedulerSteps.WaitDrained(schedulers));
    e.bindStep(new SchedulerSteps.Resume(schedulers));
    e.bindStep(counting("reset", true, StepOutcome.done("GPU reset")));
    e.bindStep(counting("broken-step", false, StepOutcome.failed("the test step fails")));
    return e;
  }

  private RemediationStep counting(String name, boolean destructive, StepOutcome outcome) {
    return new RemediationStep() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public boolean destructive() {
        return destructive;
      }

      @Override
      public String describe(StepContext ctx, Map<String, String> parameters) {
        return name + " on " + ctx.hostname();
      }

      @Override
      public StepOutcome perform(StepContext ctx) {
        performed.incrementAndGet();
        return outcome;
      }
    };
  }

  private static Policy policy(PolicyMode mode, List<PolicyStep> steps) {
    return new Policy(
        "test-xid",
        "test",
        "",
        Set.of("xid"),
        Severity.WARNING,
        Set.of(79),
        steps,
        List.of(),
        mode,
        true,
        100,
        1,
        "test",
        Instant.EPOCH);
  }

  private static final List<PolicyStep> LADDER =
      List.of(
          PolicyStep.of("drain"),
          PolicyStep.of("wait-drained"),
          PolicyStep.of("reset"),
          PolicyStep.of("resume"));

  private Finding xid(String node) {
    return new Finding(
        "f-" + node,
        "xid",
        new NodeId(node),
        0,
        Severity.CRITICAL,
        FindingState.OPEN,
        clock.instant(),
        clock.instant(),
        null,
        "XID 79 on " + node + " GPU 0: GPU has fallen off the bus",
        Map.of("code", "79"),
        "",
        0,
        1);
  }

  private void ticks(RemediationEngine e, int n) {
    for (int i = 0; i < n; i++) {
      clock.advance(Duration.ofSeconds(3));
      e.tick();
    }
  }

  @Test
  void aFindingBecomesADrainedRepairedAndResumedNodeWithEveryStepAudited() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      slurm.job("node-003", "4711");
      e.findingChanged(xid("node-003"));
      Run run = e.runs(10).get(0);
      assertEquals(RunState.RUNNING, run.state());
      assertEquals(
          SchedulerState.DRAINING, slurm.state("node-003"), "drained at once, job still on it");
      assertTrue(
          slurm.nodes.get("node-003").reason().contains("XID 79"),
          slurm.nodes.get("node-003").reason());
      ticks(e, 3);
      run = e.run(run.id()).orElseThrow();
      assertEquals(1, run.current(), "waits for the job to end");
      assertEquals(StepStatus.WAITING, run.currentStep().status());
      assertTrue(run.currentStep().detail().contains("4711"), run.currentStep().detail());
      assertEquals(0, performed.get(), "nothing is reset while work runs on the node");
      slurm.endJobs("node-003");
      ticks(e, 4);
      run = e.run(run.id()).orElseThrow();
      assertEquals(RunState.SUCCEEDED, run.state(), run.toString());
      assertEquals(1, performed.get());
      assertEquals(SchedulerState.AVAILABLE, slurm.state("node-003"));
      assertEquals(List.of("drain node-003", "resume node-003"), slurm.calls);
      long stepAudits =
          audit.records.stream()
              .filter(r -> r.event().action().equals("remediation.step-end"))
              .count();
      assertEquals(4, stepAudits);
    }
  }

  @Test
  void aDryRunThatShowedItsPlanCountsAsADryRunNotAsASuccess() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.savePolicy(policy(PolicyMode.DRY_RUN, LADDER), "admin");
      e.findingChanged(xid("node-004"));
      ticks(e, 8);
      Run run = e.runs(10).get(0);
      assertTrue(run.dryRun(), run.toString());
      assertEquals(RunState.SUCCEEDED, run.state(), run.toString());

      java.util.Map<String, Integer> counts = RunCounts.of(e.runs(10));
      assertEquals(1, counts.get(RunCounts.DRY_RUN));
      assertEquals(0, counts.get(RunState.SUCCEEDED.apiName()));
      assertEquals(
          1,
          RemediationRoutes.overview(e, new Schedulers())
              .getJsonObject("runs")
              .getInteger("dry-run"));
    }
  }

  @Test
  void aNotifyStepTellsItsAudienceThroughTheAlertChannelsAndWaitsWhenTheNoticeCannotBeQueued() {
    List<String> told = new java.util.ArrayList<>();
    AtomicInteger refusals = new AtomicInteger(1);
    io.bulwark.notify.api.Notices notices =
        (id, audience, finding, text) -> {
          if (refusals.getAndDecrement() > 0) {
            throw new io.bulwark.api.store.StoreUnavailableException("the disk is full", null);
          }
          told.add(id + " | " + audience + " | " + finding.id() + " | " + text);
          return List.of("facilities-mail");
        };
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.bindStep(new HealthSteps.Notify(audit, notices));
      e.savePolicy(
          policy(
              PolicyMode.AUTOMATIC,
              List.of(
                  PolicyStep.of("drain"),
                  PolicyStep.of("wait-drained"),
                  PolicyStep.of("notify", Map.of("audience", "facilities")),
                  PolicyStep.of("resume"))),
          "admin");
      e.findingChanged(xid("node-011"));
      String id = e.runs(10).get(0).id();
      ticks(e, 2);
      Run run = e.run(id).orElseThrow();
      assertEquals(2, run.current(), run.toString());
      assertEquals(StepStatus.WAITING, run.currentStep().status());
      assertTrue(
          run.currentStep().detail().contains("the disk is full"), run.currentStep().detail());
      assertTrue(told.isEmpty());
      ticks(e, 12);
      run = e.run(id).orElseThrow();
      assertEquals(RunState.SUCCEEDED, run.state(), run.toString());
      assertEquals(
          List.of(
              id
                  + ":notify:facilities | facilities | f-node-011 | node-011 is drained because of"
                  + " xid: XID 79 on node-011 GPU 0: GPU has fallen off the bus (run "
                  + id
                  + ")"),
          told);
      String detail = run.steps().get(2).detail();
      assertTrue(detail.endsWith("sent through facilities-mail"), detail);
      assertTrue(
          audit.records.stream()
              .anyMatch(
                  r ->
                      r.event().action().equals("remediation.notify")
                          && "facilities-mail".equals(r.event().details().get("channels"))),
          "the notice is audited with the channels it went to");
    }
  }

  @Test
  void withoutANotificationServiceTheNotifyStepSaysTheNoticeIsInTheAuditLogOnly() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.bindStep(new HealthSteps.Notify(audit, null));
      e.savePolicy(
          policy(
              PolicyMode.AUTOMATIC,
              List.of(
                  PolicyStep.of("drain"),
                  PolicyStep.of("wait-drained"),
                  PolicyStep.of("notify"),
                  PolicyStep.of("resume"))),
          "admin");
      e.findingChanged(xid("node-012"));
      String id = e.runs(10).get(0).id();
      ticks(e, 4);
      Run run = e.run(id).orElseThrow();
      assertEquals(RunState.SUCCEEDED, run.state(), run.toString());
      String detail = run.steps().get(2).detail();
      assertTrue(detail.startsWith("told operators: node-012 is drained"), detail);
      assertTrue(detail.contains("in the audit log and the log only"), detail);
    }
  }

  @Test
  void isolationStopsAtTheLimitAndTheRestAreHeldThenReleasedInOrder() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      // 12 of 40 nodes (30%) fault at once; 10% of 40 is 4; each node keeps a job so runs stay
      for (int i = 0; i < 12; i++) {
        slurm.job(String.format("node-%03d", i), "j" + i);
        e.findingChanged(xid(String.format("node-%03d", i)));
      }
      ticks(e, 2);
      List<Run> runs = e.runs(100);
      long running = runs.stream().filter(r -> r.state() == RunState.RUNNING).count();
      long held = runs.stream().filter(r -> r.state() == RunState.HELD).count();
      assertEquals(4, running);
      assertEquals(8, held);
      assertEquals(4, e.isolatedNow());
      assertTrue(
          runs.stream()
              .filter(r -> r.state() == RunState.HELD)
              .allMatch(r -> r.held().startsWith("isolation limit: 4 of 4")),
          runs.stream().map(Run::held).toList().toString());
      long drained =
          slurm.nodes.values().stream().filter(n -> n.state() != SchedulerState.AVAILABLE).count();
      assertEquals(4, drained, "held runs touch nothing");
      // the first run's job ends: it resumes its node and the oldest held run starts
      Run first =
          runs.stream()
              .filter(r -> r.state() == RunState.RUNNING)
              .min((a, b) -> a.created().compareTo(b.created()))
              .orElseThrow();
      slurm.endJobs(first.hostname());
      ticks(e, 5);
      assertEquals(RunState.SUCCEEDED, e.run(first.id()).orElseThrow().state());
      assertEquals(4, e.runs(100).stream().filter(r -> r.state() == RunState.RUNNING).count());
      assertEquals(7, e.runs(100).stream().filter(r -> r.state() == RunState.HELD).count());
    }
  }

  @Test
  void aPartitionKeepsItsLastAvailableNodes() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.saveGuardrails(
          new Guardrails(100, 0, 2, 2, 1440, 30, 3, List.of(), false, false, 0), "admin");
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      // make a partition "tiny" of three nodes
      for (String n : List.of("node-000", "node-001", "node-002")) {
        var old = slurm.nodes.get(n);
        slurm.nodes.put(
            n,
            new io.bulwark.api.scheduler.SchedulerNode(
                n, old.state(), "IDLE", "", Set.of("tiny"), List.of("j")));
      }
      e.findingChanged(xid("node-000"));
      e.findingChanged(xid("node-001"));
      List<Run> runs = e.runs(10);
      Run second = runs.get(0);
      assertEquals(RunState.HELD, second.state(), second.toString());
      assertTrue(
          second.held().contains("partition tiny of fake would keep 1 available node(s)"),
          second.held());
      assertEquals(
          SchedulerState.AVAILABLE, slurm.state("node-001"), "a held run leaves its node at work");
    }
  }

  @Test
  void aRunResumesAfterARestartAtTheStepItStoppedOn() {
    String id;
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      slurm.job("node-007", "99");
      e.findingChanged(xid("node-007"));
      ticks(e, 2);
      id = e.runs(1).get(0).id();
      assertEquals(1, e.run(id).orElseThrow().current());
    } // the appliance stops (the store is closed as after a crash: every write was committed)
    slurm.endJobs("node-007");
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      Run resumed = e.run(id).orElseThrow();
      assertEquals(RunState.RUNNING, resumed.state());
      assertEquals(1, resumed.current(), "at wait-drained, not from the start");
      ticks(e, 5);
      Run done = e.run(id).orElseThrow();
      assertEquals(RunState.SUCCEEDED, done.state());
      assertEquals(
          List.of("drain node-007", "resume node-007"), slurm.calls, "drained once, not again");
    }
  }

  @Test
  void aDryRunShowsEveryStepAndTouchesNothing() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.savePolicy(policy(PolicyMode.DRY_RUN, LADDER), "admin");
      e.findingChanged(xid("node-001"));
      Run r = e.runs(1).get(0);
      assertEquals(RunState.SUCCEEDED, r.state());
      assertTrue(r.dryRun());
      assertTrue(r.steps().stream().allMatch(s -> s.status() == StepStatus.WOULD_RUN));
      assertTrue(
          r.steps().get(0).detail().startsWith("drain node-001 in its scheduler"),
          r.steps().get(0).detail());
      assertTrue(slurm.calls.isEmpty());
      assertEquals(0, performed.get());
    }
  }

  @Test
  void destructiveStepsWaitForApprovalInApproveMode() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.savePolicy(policy(PolicyMode.APPROVE_DESTRUCTIVE, LADDER), "admin");
      e.findingChanged(xid("node-002"));
      Run r = e.runs(1).get(0);
      assertEquals(RunState.AWAITING_APPROVAL, r.state());
      assertTrue(slurm.calls.isEmpty(), "not drained before approval");
      e.approve(r.id(), r.current(), "operator1");
      ticks(e, 2);
      r = e.run(r.id()).orElseThrow();
      assertEquals(RunState.AWAITING_APPROVAL, r.state(), "the reset is destructive too");
      assertEquals(2, r.current());
      assertEquals(List.of("drain node-002"), slurm.calls);
      e.approve(r.id(), r.current(), "operator1");
      ticks(e, 3);
      assertEquals(RunState.SUCCEEDED, e.run(r.id()).orElseThrow().state());
      assertThrows(IllegalStateException.class, () -> e.approve(e.runs(1).get(0).id(), 0, "x"));
    }
  }

  /** An engine on a site with no scheduler connector installed, past its start minute. */
  private RemediationEngine unscheduled(MapDbRecordStore store) {
    long[] now = {0};
    Schedulers none = new Schedulers(() -> now[0]);
    now[0] = Duration.ofMinutes(5).toNanos();
    RemediationEngine e =
        new RemediationEngine(store, none, audit, clock, Runnable::run, PolicyMode.DRY_RUN, 0, 100);
    io.bulwark.testing.InMemoryFleet fleet = new io.bulwark.testing.InMemoryFleet();
    fleet.put(
        new io.bulwark.api.fleet.Node(
            new NodeId("gpu-node-044"), List.of(), Instant.EPOCH, Instant.EPOCH));
    e.bindFleet(fleet);
    e.bindStep(new SchedulerSteps.Drain(none));
    e.bindStep(new SchedulerSteps.WaitDrained(none));
    e.bindStep(new SchedulerSteps.Resume(none));
    e.bindStep(
        new RemediationStep() {
          @Override
          public String name() {
            return "reset";
          }

          @Override
          public boolean destructive() {
            return true;
          }

          @Override
          public String describe(StepContext ctx, Map<String, String> parameters) {
            return "reset on " + ctx.hostname();
          }

          @Override
          public StepOutcome perform(StepContext ctx) {
            if (!ctx.drained()) {
              return StepOutcome.failed("not drained");
            }
            performed.incrementAndGet();
            return StepOutcome.done("GPU reset");
          }
        });
    return e;
  }

  @Test
  void withNoSchedulerAStepThatKillsWorkWaitsForAPersonWhoKnowsItEvenInAutomaticMode() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      // Given a site with no scheduler connector and an automatic policy
      RemediationEngine e = unscheduled(store);
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      // When a finding starts a run
      e.findingChanged(xid("gpu-node-044"));
      ticks(e, 3);
      Run r = e.runs(1).get(0);
      // Then drain and wait-drained are skipped, and the reset waits for a person
      assertEquals(StepStatus.SKIPPED, r.steps().get(0).status());
      assertEquals(StepStatus.SKIPPED, r.steps().get(1).status());
      assertEquals(RunState.AWAITING_APPROVAL, r.state(), r.toString());
      assertEquals(2, r.current());
      assertTrue(
          r.currentStep().detail().contains("no scheduler drains gpu-node-044")
              && r.currentStep().detail().contains("kills any job still running on gpu-node-044"),
          r.currentStep().detail());
      assertEquals(0, performed.get(), "nothing disturbed the node before a person approved");
      // An approval that does not say jobs may be killed is refused, and changes nothing
      String id = r.id();
      IllegalStateException plain =
          assertThrows(IllegalStateException.class, () -> e.approve(id, 2, "operator1"));
      assertTrue(plain.getMessage().contains("jobsMayBeKilled"), plain.getMessage());
      ticks(e, 3);
      assertEquals(RunState.AWAITING_APPROVAL, e.run(id).orElseThrow().state());
      assertEquals(0, performed.get());
      // One that does lets the step on, and says who knew
      e.approve(id, 2, "operator1", true);
      ticks(e, 3);
      Run done = e.run(id).orElseThrow();
      assertEquals(RunState.SUCCEEDED, done.state(), done.toString());
      assertEquals(1, performed.get());
      assertEquals("operator1", done.steps().get(2).evidence().get("jobsKilledApprovedBy"));
    }
  }

  @Test
  void aDryRunWithNoSchedulerSaysTheStepWouldWaitForApproval() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = unscheduled(store);
      e.savePolicy(policy(PolicyMode.DRY_RUN, LADDER), "admin");
      e.findingChanged(xid("gpu-node-044"));
      Run r = e.runs(1).get(0);
      assertTrue(r.dryRun());
      String reset = r.steps().get(2).detail();
      assertTrue(reset.contains("would wait for approval: no scheduler drains this node"), reset);
      assertFalse(r.steps().get(0).detail().contains("would wait"), r.steps().get(0).detail());
      assertEquals(0, performed.get());
    }
  }

  /** A deployed machine for each node of the fake scheduler, those in {@code off} powered off. */
  private static io.bulwark.api.machine.MachineService deployed(
      java.util.Collection<String> nodes, Set<String> off) {
    List<io.bulwark.api.machine.Machine> all = new java.util.ArrayList<>();
    for (String n : new java.util.TreeSet<>(nodes)) {
      all.add(
          new io.bulwark.api.machine.Machine(
              new io.bulwark.api.machine.MachineId(n),
              n,
              List.of(),
              null,
              "",
              "",
              Set.of(),
              io.bulwark.api.machine.MachineState.DEPLOYED,
              "",
              Instant.EPOCH,
              null,
              null,
              "",
              false,
              new NodeId(n),
              off.contains(n)
                  ? io.bulwark.api.machine.PowerState.OFF
                  : io.bulwark.api.machine.PowerState.ON,
              "",
              "",
              "",
              Instant.EPOCH));
    }
    // Quarantine and remediate move the machine as the machines service does; the rest is unused.
    return (io.bulwark.api.machine.MachineService)
        java.lang.reflect.Proxy.newProxyInstance(
            RemediationEngineTest.class.getClassLoader(),
            new Class<?>[] {io.bulwark.api.machine.MachineService.class},
            (proxy, method, args) -> {
              switch (method.getName()) {
                case "machines":
                  return List.copyOf(all);
                case "machine":
                  return all.stream().filter(m -> m.id().equals(args[0])).findFirst();
                case "refusal":
                  return java.util.Optional.empty();
                case "operate":
                  io.bulwark.api.machine.MachineOperation op =
                      (io.bulwark.api.machine.MachineOperation) args[1];
                  for (int i = 0; i < all.size(); i++) {
                    io.bulwark.api.machine.Machine m = all.get(i);
                    if (m.id().equals(args[0])) {
                      io.bulwark.api.machine.MachineState to =
                          op == io.bulwark.api.machine.MachineOperation.QUARANTINE
                              ? io.bulwark.api.machine.MachineState.QUARANTINED
                              : io.bulwark.api.machine.MachineState.REMEDIATING;
                      all.set(i, m.withState(to, "", Instant.EPOCH, null, null));
                      return all.get(i);
                    }
                  }
                  return null;
                default:
                  return null;
              }
            });
  }

  @Test
  void machinesTakenOutByHandCountAgainstTheSameLimitAsRunsAndTheSwitchesHoldThemToo() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      // Given 40 deployed machines (the limit is 10%: 4), three of them powered off by hand
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      Set<String> off = Set.of("node-001", "node-002", "node-003");
      io.bulwark.api.machine.MachineService machines = deployed(slurm.nodes.keySet(), off);
      e.bindMachines(machines);
      io.bulwark.api.machine.Machine fourth =
          machines.machines().stream()
              .filter(m -> m.hostname().equals("node-004"))
              .findFirst()
              .orElseThrow();
      // Then a fourth by hand is allowed
      assertEquals(java.util.Optional.empty(), e.handRefusal(fourth));
      // When a run isolates one more node
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      slurm.job("node-030", "1");
      e.findingChanged(xid("node-030"));
      assertEquals(RunState.RUNNING, e.runs(1).get(0).state());
      // Then the fourth by hand is refused, naming the limit and who took the nodes out
      String why = e.handRefusal(fourth).orElseThrow();
      assertTrue(
          why.startsWith(
              "isolation limit: 4 of 4 node(s) already out of service (1 by remediation"
                  + " runs, 3 by hand"),
          why);
      // And a run on another node is held by the same count
      e.findingChanged(xid("node-031"));
      Run held = e.runs(1).get(0);
      assertEquals(RunState.HELD, held.state());
      assertTrue(held.held().contains("3 of them taken out by hand"), held.held());
      // And the kill switch refuses anything by hand, whatever the count
      e.killSwitch(true, "operator1");
      io.bulwark.api.machine.Machine fifth =
          machines.machines().stream()
              .filter(m -> m.hostname().equals("node-005"))
              .findFirst()
              .orElseThrow();
      assertTrue(e.handRefusal(fifth).orElseThrow().contains("kill switch"));
      // The guard applies to what takes a deployed machine's work away, not to a power-on
      MachineActionGuardrails guard = new MachineActionGuardrails(e, new Schedulers());
      assertTrue(guard.guarded(fifth, io.bulwark.api.machine.MachineOperation.POWER_OFF));
      assertFalse(guard.guarded(fifth, io.bulwark.api.machine.MachineOperation.POWER_ON));
      assertEquals(
          java.util.Optional.empty(),
          guard.refusal(fifth, io.bulwark.api.machine.MachineOperation.POWER_ON));
    }
  }

  @Test
  void aDrainTimeoutIsMeasuredOnTheSteadyClockNotTheWallClockThatJumps() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      // Given an engine on the steady clock, as the appliance builds it, and a wall clock beside
      long[] nanos = {0};
      MutableClock wall = new MutableClock(clock.instant());
      io.bulwark.api.system.SteadyClock steady =
          io.bulwark.api.system.SteadyClock.of(wall.millis(), () -> nanos[0]);
      Schedulers schedulers = new Schedulers();
      schedulers.bind(slurm);
      RemediationEngine e =
          new RemediationEngine(
              store, schedulers, audit, steady, Runnable::run, PolicyMode.DRY_RUN, 0, 100);
      e.bindStep(new SchedulerSteps.Drain(schedulers));
      e.bindStep(new SchedulerSteps.WaitDrained(schedulers));
      e.bindStep(new SchedulerSteps.Resume(schedulers));
      e.bindStep(counting("reset", true, StepOutcome.done("GPU reset")));
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      slurm.job("node-021", "31");
      e.findingChanged(xid("node-021"));
      String id = e.runs(1).get(0).id();
      Runnable minute =
          () -> {
            nanos[0] += Duration.ofMinutes(1).toNanos();
            wall.advance(Duration.ofMinutes(1));
            e.tick();
          };
      // When ten minutes pass and the wall clock steps an hour forward (NTP), then back
      for (int i = 0; i < 10; i++) {
        minute.run();
      }
      wall.advance(Duration.ofHours(1));
      minute.run();
      // Then the 60 min drain timeout has not passed: the run still waits for job 31
      Run r = e.run(id).orElseThrow();
      assertEquals(RunState.RUNNING, r.state(), r.toString());
      assertEquals(StepStatus.WAITING, r.currentStep().status());
      wall.advance(Duration.ofHours(-2));
      minute.run();
      assertEquals(StepStatus.WAITING, e.run(id).orElseThrow().currentStep().status());
      // And after 61 steady minutes in all it times out, whatever the wall clock says
      for (int i = 0; i < 50; i++) {
        minute.run();
      }
      Run late = e.run(id).orElseThrow();
      assertEquals(RunState.FAILED, late.state(), late.toString());
      assertTrue(late.held().contains("after 60 min of draining"), late.held());
      assertEquals(0, performed.get());
    }
  }

  @Test
  void failuresInARowOpenTheBreakerAndNothingMoreRunsUntilAnAdminResetsIt() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.saveGuardrails(
          new Guardrails(100, 0, 0, 2, 1440, 0, 3, List.of(), false, false, 0), "admin");
      e.savePolicy(
          policy(
              PolicyMode.AUTOMATIC, List.of(PolicyStep.of("drain"), PolicyStep.of("broken-step"))),
          "admin");
      for (int i = 0; i < 3; i++) {
        e.findingChanged(xid("node-01" + i));
        ticks(e, 2);
      }
      assertEquals(3, e.runs(10).stream().filter(r -> r.state() == RunState.FAILED).count());
      assertTrue(e.guardrails().breakerOpen());
      Run failed = e.runs(10).get(0);
      assertTrue(failed.held().contains("the test step fails"), failed.held());
      assertEquals(
          SchedulerState.DRAINED, slurm.state("node-012"), "a failed run leaves its node isolated");
      e.findingChanged(xid("node-020"));
      Run held = e.runs(1).get(0);
      assertEquals(RunState.HELD, held.state());
      assertTrue(held.held().startsWith("the circuit breaker is open"), held.held());
      e.resetBreaker("admin");
      ticks(e, 1);
      assertFalse(e.run(held.id()).orElseThrow().state() == RunState.HELD);
    }
  }

  @Test
  void theKillSwitchHoldsEverythingWhereItIs() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      slurm.job("node-004", "1");
      e.findingChanged(xid("node-004"));
      Run r = e.runs(1).get(0);
      e.killSwitch(true, "operator1");
      slurm.endJobs("node-004");
      ticks(e, 5);
      assertEquals(1, e.run(r.id()).orElseThrow().current(), "no step while the kill switch is on");
      e.findingChanged(xid("node-005"));
      assertEquals(RunState.HELD, e.runs(1).get(0).state());
      e.killSwitch(false, "admin");
      ticks(e, 6);
      assertEquals(RunState.SUCCEEDED, e.run(r.id()).orElseThrow().state());
    }
  }

  @Test
  void aNodeThatKeepsFailingGoesToAPersonInsteadOfLooping() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.saveGuardrails(
          new Guardrails(100, 0, 0, 2, 1440, 0, 3, List.of(), false, false, 0), "admin");
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      for (int i = 0; i < 2; i++) {
        Finding f =
            new Finding(
                "f" + i,
                "xid",
                new NodeId("node-030"),
                0,
                Severity.CRITICAL,
                FindingState.OPEN,
                clock.instant(),
                clock.instant(),
                null,
                "XID 79",
                Map.of("code", "79"),
                "",
                0,
                1);
        e.findingChanged(f);
        ticks(e, 5);
      }
      assertEquals(2, e.runs(10).stream().filter(r -> r.state() == RunState.SUCCEEDED).count());
      e.findingChanged(
          new Finding(
              "f3",
              "xid",
              new NodeId("node-030"),
              0,
              Severity.CRITICAL,
              FindingState.OPEN,
              clock.instant(),
              clock.instant(),
              null,
              "XID 79",
              Map.of("code", "79"),
              "",
              0,
              1));
      Run third = e.runs(1).get(0);
      assertEquals(RunState.ESCALATED, third.state());
      assertTrue(third.held().contains("remediated 2 time(s)"), third.held());
    }
  }

  @Test
  void anUnreachableSchedulerStopsTheRunAtThatStepAndTheNodeIsNotReportedDrained() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.saveGuardrails(
          new Guardrails(100, 0, 0, 2, 1440, 0, 3, List.of(), false, false, 0), "admin");
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      slurm.unreachable = true;
      e.findingChanged(xid("node-008"));
      Run r = e.runs(1).get(0);
      assertEquals(RunState.FAILED, r.state());
      assertEquals(StepStatus.FAILED, r.steps().get(0).status());
      assertTrue(
          r.steps().get(0).detail().contains("slurmctld is not responding"),
          r.steps().get(0).detail());
      assertEquals(StepStatus.CANCELLED, r.steps().get(1).status());
    }
  }

  @Test
  void policiesAreVersionedAndAStepNoBundleProvidesIsRefused() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      assertTrue(e.policies().stream().anyMatch(p -> p.id().equals("gpu-off-the-bus")));
      assertTrue(
          e.policies().stream().allMatch(p -> p.mode() == PolicyMode.DRY_RUN),
          "a fresh appliance starts in dry-run");
      Policy v1 =
          e.policies().stream().filter(p -> p.id().equals("straggler")).findFirst().orElseThrow();
      Policy changed =
          new Policy(
              v1.id(),
              v1.name(),
              v1.description(),
              v1.kinds(),
              v1.minSeverity(),
              v1.xids(),
              List.of(PolicyStep.of("drain")),
              List.of(),
              PolicyMode.AUTOMATIC,
              true,
              5,
              1,
              "",
              Instant.EPOCH);
      Policy v2 = e.savePolicy(changed, "admin");
      assertEquals(2, v2.version());
      assertEquals("admin", v2.updatedBy());
      assertEquals(
          List.of(1, 2), e.policyHistory("straggler").stream().map(Policy::version).toList());
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  e.savePolicy(
                      policy(PolicyMode.AUTOMATIC, List.of(PolicyStep.of("teleport"))), "admin"));
      assertTrue(refused.getMessage().contains("teleport"), refused.getMessage());
    }
  }

  @Test
  void anApprovalIsForTheStepTheApproverSawAndNoOther() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.savePolicy(policy(PolicyMode.APPROVE_DESTRUCTIVE, LADDER), "admin");
      e.findingChanged(xid("node-021"));
      Run r = e.runs(1).get(0);
      IllegalStateException stale =
          assertThrows(IllegalStateException.class, () -> e.approve(r.id(), 2, "operator1"));
      assertTrue(stale.getMessage().contains("step 1 (drain)"), stale.getMessage());
      assertEquals(RunState.AWAITING_APPROVAL, e.run(r.id()).orElseThrow().state());
      assertTrue(slurm.calls.isEmpty());
    }
  }

  @Test
  void aFailedRunThatDrainedItsNodeStillCountsAgainstTheIsolationLimit() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.saveGuardrails(
          new Guardrails(5, 0, 0, 5, 1440, 0, 100, List.of(), false, false, 0), "admin");
      e.savePolicy(
          policy(
              PolicyMode.AUTOMATIC, List.of(PolicyStep.of("drain"), PolicyStep.of("broken-step"))),
          "admin");
      // 5% of 40 nodes: 2 at once. Two runs fail and leave their nodes drained for a person.
      e.findingChanged(xid("node-001"));
      e.findingChanged(xid("node-002"));
      ticks(e, 2);
      assertEquals(2, e.runs(10).stream().filter(r -> r.state() == RunState.FAILED).count());
      assertEquals(2, e.isolatedNow(), "the drained nodes are still out of service");
      e.findingChanged(xid("node-003"));
      Run third = e.runs(1).get(0);
      assertEquals(RunState.HELD, third.state());
      assertTrue(third.held().startsWith("isolation limit: 2 of 2"), third.held());
    }
  }

  @Test
  void aLadderThatDisturbsTheNodeBeforeItIsDrainedIsRefused() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.bindStep(counting("power-cycle", true, StepOutcome.done("cycled")));
      IllegalArgumentException early =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  e.savePolicy(
                      policy(
                          PolicyMode.AUTOMATIC,
                          List.of(PolicyStep.of("drain"), PolicyStep.of("power-cycle"))),
                      "admin"));
      assertTrue(early.getMessage().contains("wait-drained"), early.getMessage());
      IllegalArgumentException proceed =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  e.savePolicy(
                      policy(
                          PolicyMode.AUTOMATIC,
                          List.of(
                              PolicyStep.of("drain"),
                              PolicyStep.of("wait-drained", Map.of("onTimeout", "proceed")),
                              PolicyStep.of("power-cycle"))),
                      "admin"));
      assertTrue(proceed.getMessage().contains("onTimeout=proceed"), proceed.getMessage());
      IllegalArgumentException badNumber =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  e.savePolicy(
                      policy(
                          PolicyMode.AUTOMATIC,
                          List.of(
                              PolicyStep.of("drain"),
                              PolicyStep.of("wait-drained", Map.of("timeoutMinutes", "soon")))),
                      "admin"));
      assertTrue(badNumber.getMessage().contains("timeoutMinutes"), badNumber.getMessage());
      e.savePolicy(
          policy(
              PolicyMode.AUTOMATIC,
              List.of(
                  PolicyStep.of("drain"),
                  PolicyStep.of("wait-drained"),
                  PolicyStep.of("power-cycle"))),
          "admin");
    }
  }

  @Test
  void aDownNodeWithWorkListedOnItIsNotTakenAsDrained() {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      RemediationEngine e = engine(store, PolicyMode.DRY_RUN);
      e.savePolicy(policy(PolicyMode.AUTOMATIC, LADDER), "admin");
      slurm.job("node-009", "77");
      e.findingChanged(xid("node-009"));
      var n = slurm.nodes.get("node-009");
      slurm.nodes.put(
          "node-009",
          new io.bulwark.api.scheduler.SchedulerNode(
              "node-009", SchedulerState.DOWN, "DOWN+DRAIN", n.reason(), n.pools(), n.jobs()));
      ticks(e, 3);
      Run r = e.runs(1).get(0);
      assertEquals(1, r.current(), "still waiting: job 77 is listed on the node");
      assertEquals(0, performed.get());
    }
  }

  /** A clock the test moves. */
  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant start) {
      now = start;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
