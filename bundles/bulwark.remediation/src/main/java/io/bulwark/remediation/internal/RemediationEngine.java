package io.bulwark.remediation.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingListener;
import io.bulwark.api.health.FindingRepository;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.PowerState;
import io.bulwark.api.remediation.Guardrails;
import io.bulwark.api.remediation.Policy;
import io.bulwark.api.remediation.PolicyMode;
import io.bulwark.api.remediation.PolicyStep;
import io.bulwark.api.remediation.RemediationService;
import io.bulwark.api.remediation.RemediationStep;
import io.bulwark.api.remediation.Run;
import io.bulwark.api.remediation.RunState;
import io.bulwark.api.remediation.StepContext;
import io.bulwark.api.remediation.StepOutcome;
import io.bulwark.api.remediation.StepRecord;
import io.bulwark.api.remediation.StepStatus;
import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.WritePriority;
import io.bulwark.api.system.SteadyClock;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The remediation engine. A finding that opens and matches a policy becomes a run, stored before
 * anything else happens. A run is held until the guardrails let it isolate its node (the kill
 * switch, the circuit breaker, cooldown, the share of the fleet and of a rack isolated, the nodes a
 * scheduler partition keeps); then its machine moves to Quarantined and Remediating and its steps
 * are called in order, each recorded as running before it is acted on. A run that ends well returns
 * the machine to the state it came from; one that fails leaves the node isolated, moves the machine
 * back to Quarantined and goes to a person with its evidence. After a restart every run that had
 * not ended goes on at the step it stopped on: the step is called again and re-checks what it had
 * set in motion. Dry-runs show every step as it would be done and touch nothing.
 */
@Component(
    service = {RemediationService.class, FindingListener.class, RemediationEngine.class},
    configurationPid = "io.bulwark.remediation",
    configurationPolicy = ConfigurationPolicy.OPTIONAL,
    immediate = true)
@Designate(ocd = RemediationConfig.class)
public final class RemediationEngine implements RemediationService, FindingListener {
  static final String BULWARK = "bulwark";

  /** The evidence key of a step that waits for an approval of a kind other than the mode's. */
  static final String APPROVAL = "approval";

  /** The approval a step needs when it would act on a node no scheduler drained. */
  static final String KILLS_JOBS = "kills-jobs";

  /** The evidence key naming who approved a step knowing that it kills the node's jobs. */
  static final String JOBS_KILLED_APPROVED_BY = "jobsKilledApprovedBy";

  private static final System.Logger LOG = System.getLogger(RemediationEngine.class.getName());

  private final RecordStore store;
  private final Schedulers schedulers;
  private final AuditLog audit;
  private final Clock clock;
  private final Executor workers;
  private final int keepRuns;
  private final Map<String, Run> runs = new ConcurrentHashMap<>();
  private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
  private final Set<String> queued = ConcurrentHashMap.newKeySet();

  /** The finding each run started for, as it was then (its steps read it). */
  private final Map<String, Finding> findingsCache = new ConcurrentHashMap<>();

  private volatile boolean stopping;
  private volatile boolean killed;
  private volatile boolean findingsScanned;
  private final Map<String, RemediationStep> steps = new ConcurrentHashMap<>();
  private final List<Consumer<Run>> listeners = new CopyOnWriteArrayList<>();
  private final AtomicLong sequence = new AtomicLong();

  /** How long after start a step no bundle provides is waited for (its bundle may be starting). */
  static final Duration STEP_GRACE = Duration.ofSeconds(30);

  private final Instant startedAt;
  private volatile Guardrails guardrails;
  private volatile MachineService machines;
  private volatile FleetRepository fleet;
  private volatile FindingRepository findings;
  private volatile boolean orphansChecked;
  private ScheduledExecutorService ticker;
  private ExecutorService pool;

  @Activate
  public RemediationEngine(
      @Reference RecordStore store,
      @Reference Schedulers schedulers,
      @Reference AuditLog audit,
      RemediationConfig config) {
    this(
        store,
        schedulers,
        audit,
        SteadyClock.system(), // durations (waits, timeouts, cooldowns) survive a clock step
        workerPool(config.workers()),
        mode(config.initialMode()),
        config.soakSeconds(),
        config.keepRuns());
    int tick = config.tickMillis();
    if (tick < 50 || tick > 60_000) {
      throw new IllegalArgumentException(
          "tickMillis of io.bulwark.remediation must be between 50 and 60000, got " + tick);
    }
    ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bulwark-remediation");
              t.setDaemon(true);
              return t;
            });
    ticker.scheduleWithFixedDelay(this::tickQuietly, tick, tick, TimeUnit.MILLISECONDS);
  }

  RemediationEngine(
      RecordStore store,
      Schedulers schedulers,
      AuditLog audit,
      Clock clock,
      Executor workers,
      PolicyMode initialMode,
      int soakSeconds,
      int keepRuns) {
    this.store = store;
    this.schedulers = schedulers;
    this.audit = audit;
    this.clock = clock;
    this.workers = workers;
    this.keepRuns = keepRuns;
    this.startedAt = clock.instant();
    if (workers instanceof ExecutorService es) {
      this.pool = es;
    }
    if (soakSeconds < 0 || soakSeconds > 86_400) {
      throw new IllegalArgumentException(
          "soakSeconds of io.bulwark.remediation must be between 0 and 86400, got " + soakSeconds);
    }
    if (keepRuns < 10) {
      throw new IllegalArgumentException(
          "keepRuns of io.bulwark.remediation must be 10 or more, got " + keepRuns);
    }
    load(initialMode, soakSeconds);
  }

  private static PolicyMode mode(String text) {
    return PolicyMode.parse(text)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "initialMode of io.bulwark.remediation is dry-run, approve-destructive or"
                        + " automatic, not '"
                        + text
                        + "'"));
  }

  private static ExecutorService workerPool(int n) {
    if (n < 1 || n > 256) {
      throw new IllegalArgumentException(
          "workers of io.bulwark.remediation must be between 1 and 256, got " + n);
    }
    AtomicLong count = new AtomicLong();
    return Executors.newFixedThreadPool(
        n,
        r -> {
          Thread t = new Thread(r, "bulwark-remediation-" + count.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }

  @Deactivate
  void deactivate() {
    // A step cut short by the stop is re-checked after the restart, not failed.
    stopping = true;
    if (ticker != null) {
      ticker.shutdownNow();
    }
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  // ---- references ----

  @Reference(
      service = RemediationStep.class,
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC)
  void bindStep(RemediationStep step) {
    RemediationStep before = steps.putIfAbsent(step.name(), step);
    if (before != null && before != step) {
      LOG.log(
          Level.WARNING,
          "Two bundles provide the remediation step {0}; the first one bound is used",
          step.name());
    }
  }

  void unbindStep(RemediationStep step) {
    steps.remove(step.name(), step);
  }

  @Reference(
      service = MachineService.class,
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC)
  void bindMachines(MachineService m) {
    machines = m;
  }

  void unbindMachines(MachineService m) {
    if (machines == m) {
      machines = null;
    }
  }

  @Reference(
      service = FleetRepository.class,
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC)
  void bindFleet(FleetRepository f) {
    fleet = f;
  }

  void unbindFleet(FleetRepository f) {
    if (fleet == f) {
      fleet = null;
    }
  }

  @Reference(
      service = FindingRepository.class,
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC)
  void bindFindings(FindingRepository f) {
    findings = f;
  }

  void unbindFindings(FindingRepository f) {
    if (findings == f) {
      findings = null;
    }
  }

  /** Calls {@code listener} with every run after it changed; returns what stops it. */
  AutoCloseable listen(Consumer<Run> listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  // ---- loading ----

  private void load(PolicyMode initialMode, int soakSeconds) {
    Instant now = clock.instant();
    store.write(
        "set up the remediation policies and guardrails",
        WritePriority.RESERVED,
        w -> {
          var policies = w.map(RemediationFormats.POLICIES);
          for (Policy p : DefaultPolicies.all(initialMode, soakSeconds, now)) {
            if (!policies.contains(p.id())) {
              policies.put(p.id(), p);
              w.map(RemediationFormats.POLICY_VERSIONS)
                  .put(RemediationFormats.versionKey(p.id(), 1), p);
            }
          }
          var settings = w.map(RemediationFormats.SETTINGS);
          if (!settings.contains(RemediationFormats.GUARDRAILS_KEY)) {
            settings.put(RemediationFormats.GUARDRAILS_KEY, Guardrails.defaults());
          }
          return null;
        });
    guardrails =
        store.read(r -> r.map(RemediationFormats.SETTINGS).get(RemediationFormats.GUARDRAILS_KEY));
    killed = guardrails.killSwitch();
    List<Run> stored =
        store.read(r -> r.map(RemediationFormats.RUNS).entries()).stream()
            .map(Map.Entry::getValue)
            .toList();
    int resumed = 0;
    for (Run r : stored) {
      runs.put(r.id(), r);
      if (!r.state().isFinal()) {
        resumed++;
      }
    }
    if (resumed > 0) {
      LOG.log(
          Level.INFO,
          "Remediation: {0} run(s) had not ended when the appliance stopped; each goes on at the"
              + " step it stopped on",
          resumed);
    }
  }

  // ---- findings ----

  @Override
  public void findingChanged(Finding finding) {
    if (!finding.isOpen()) {
      workers.execute(() -> dropHeldFor(finding));
      return;
    }
    if (hasRunFor(finding.id())) {
      return;
    }
    workers.execute(
        () -> {
          try {
            startFor(finding, null, BULWARK);
          } catch (RuntimeException e) {
            LOG.log(
                Level.WARNING,
                "Remediation: no run could be started for finding "
                    + finding.id()
                    + " on "
                    + finding.node()
                    + ": "
                    + e.getMessage(),
                e);
          }
        });
  }

  private boolean hasRunFor(String findingId) {
    for (Run r : runs.values()) {
      if (r.findingId().equals(findingId)) {
        return true;
      }
    }
    return false;
  }

  /** A finding that cleared before its run started: the held run is no longer needed. */
  private void dropHeldFor(Finding finding) {
    for (Run r : runs.values()) {
      if (r.findingId().equals(finding.id()) && r.state() == RunState.HELD) {
        synchronized (this) {
          Run now = runs.get(r.id());
          if (now != null && now.state() == RunState.HELD) {
            end(
                now,
                RunState.CANCELLED,
                "the finding cleared before the run could start",
                now.steps());
          }
        }
      }
    }
  }

  /** Creates the run for an open finding, or returns null if no policy answers it. */
  synchronized Run startFor(Finding finding, String policyId, String by) {
    if (hasRunFor(finding.id()) && policyId == null) {
      return null;
    }
    Optional<Policy> chosen =
        policyId != null
            ? Optional.ofNullable(store.read(r -> r.map(RemediationFormats.POLICIES).get(policyId)))
            : policies().stream()
                .filter(p -> p.matches(finding))
                .max(Comparator.comparingInt(Policy::priority).thenComparing(Policy::id));
    if (chosen.isEmpty()) {
      if (policyId != null) {
        throw new NoSuchElementException("no policy " + policyId);
      }
      return null;
    }
    Policy policy = chosen.get();
    Optional<Run> active = activeRun(finding.node());
    if (active.isPresent()) {
      if (policyId != null) {
        throw new IllegalStateException(
            "node "
                + finding.node()
                + " has run "
                + active.get().id()
                + " under way ("
                + active.get().state().apiName()
                + "): cancel it first");
      }
      return null;
    }
    Optional<Machine> machine = machineOf(finding.node());
    String hostname = machine.map(Machine::hostname).orElse(finding.node().value());
    Instant now = clock.instant();
    Guardrails g = guardrails;
    List<Run> recent =
        recentRuns(finding.node(), now.minus(Duration.ofMinutes(g.flapWindowMinutes())));
    List<PolicyStep> ladder = policy.steps();
    String held = "";
    RunState state = RunState.HELD;
    if (policy.mode() != PolicyMode.DRY_RUN && recent.size() >= g.flapRuns()) {
      state = RunState.ESCALATED;
      held =
          "node "
              + finding.node()
              + " was remediated "
              + recent.size()
              + " time(s) in the last "
              + words(Duration.ofMinutes(g.flapWindowMinutes()))
              + " (flap limit "
              + g.flapRuns()
              + "): it goes to a person instead of another run";
    } else if (!recent.isEmpty()
        && !policy.recurrenceSteps().isEmpty()
        && recent.stream().anyMatch(r -> r.policyId().equals(policy.id()))) {
      ladder = policy.recurrenceSteps();
      held =
          "recurrence: the node's previous run of " + policy.id() + " was within the flap window";
    }
    List<StepRecord> records = new ArrayList<>();
    for (PolicyStep s : ladder) {
      records.add(StepRecord.pending(s));
    }
    Run run =
        new Run(
            newId(now),
            finding.node(),
            hostname,
            machine.map(Machine::id).orElse(null),
            finding.id(),
            finding.kind(),
            finding.summary(),
            policy.id(),
            policy.version(),
            policy.mode(),
            state,
            0,
            records,
            held,
            by,
            now,
            now,
            now,
            "");
    save(run, "start remediation run for " + finding.node());
    findingsCache.put(run.id(), finding);
    audit(
        "remediation.run-start",
        run,
        AuditOutcome.SUCCESS,
        Map.of(
            "policy", policy.id() + " v" + policy.version(),
            "mode", policy.mode().apiName(),
            "finding", finding.id(),
            "kind", finding.kind(),
            "startedBy", by));
    if (state == RunState.ESCALATED) {
      LOG.log(Level.WARNING, "Remediation of {0}: {1}", finding.node(), held);
      return end(run, RunState.ESCALATED, held, run.steps());
    }
    Run admitted = admit(run);
    if (admitted.state() == RunState.RUNNING) {
      dispatch(admitted.id());
    }
    return admitted;
  }

  private List<Run> recentRuns(NodeId node, Instant since) {
    List<Run> out = new ArrayList<>();
    for (Run r : runs.values()) {
      if (r.node().equals(node)
          && !r.dryRun()
          && r.state() != RunState.CANCELLED
          && r.state() != RunState.ESCALATED
          && !r.created().isBefore(since)) {
        out.add(r);
      }
    }
    return out;
  }

  private Optional<Run> activeRun(NodeId node) {
    return runs.values().stream()
        .filter(r -> r.node().equals(node) && !r.state().isFinal())
        .findFirst();
  }

  /**
   * The machines and the fleet's size, read once for a pass over held runs: the guardrails of every
   * run of the pass are checked against it (the machines service reads its whole map per call).
   */
  private record View(List<Machine> machines, int fleetSize) {}

  private View view() {
    MachineService m = machines;
    List<Machine> all = m == null ? List.of() : m.machines();
    FleetRepository f = fleet;
    int n = Math.max(f == null ? 0 : f.nodes().size(), all.size());
    return new View(all, Math.max(n, 1));
  }

  private Optional<Machine> machineOf(NodeId node) {
    return machineOf(node, view().machines());
  }

  private static Optional<Machine> machineOf(NodeId node, List<Machine> all) {
    for (Machine x : all) {
      if (node.equals(x.node()) || x.hostname().equals(node.value())) {
        return Optional.of(x);
      }
    }
    return Optional.empty();
  }

  private String newId(Instant now) {
    return String.format("run-%013d-%04d", now.toEpochMilli(), sequence.incrementAndGet() % 10_000);
  }

  // ---- guardrails ----

  /** Lets a held run start if the guardrails allow it, or keeps it held saying why. */
  private synchronized Run admit(Run run) {
    return admit(run, view());
  }

  private synchronized Run admit(Run run, View view) {
    Run now = runs.get(run.id());
    if (now == null || now.state() != RunState.HELD) {
      return now == null ? run : now;
    }
    FindingRepository repo = findings;
    if (repo != null && !now.findingId().isEmpty()) {
      Optional<Finding> f = repo.get(now.findingId());
      if (f.isPresent() && !f.get().isOpen()) {
        return end(
            now, RunState.CANCELLED, "the finding cleared before the run could start", now.steps());
      }
    }
    Optional<String> refusal = refusal(now, view);
    Instant at = clock.instant();
    if (now.dryRun()) {
      return dryRun(now, refusal.map(r -> "would be held: " + r).orElse(""));
    }
    if (refusal.isPresent()) {
      if (!refusal.get().equals(now.held())) {
        now = now.with(RunState.HELD, 0, now.steps(), refusal.get(), at, at, "");
        save(now, "hold remediation run " + now.id());
      }
      return now;
    }
    // Stored first: a crash before the machine moves leaves a running run whose first step sees
    // the machine not Remediating and sends it to a person, never a machine moved by no run.
    Run running = now.with(RunState.RUNNING, 0, now.steps(), "", at, at, "");
    save(running, "start remediation run " + now.id());
    Optional<String> machineRefusal = isolateMachine(running);
    if (machineRefusal.isPresent()) {
      return end(running, RunState.ESCALATED, machineRefusal.get(), running.steps());
    }
    return running;
  }

  /** Why {@code run} may not isolate its node now, or empty. */
  Optional<String> refusal(Run run) {
    return refusal(run, view());
  }

  private Optional<String> refusal(Run run, View view) {
    Guardrails g = guardrails;
    if (killed) {
      return Optional.of(
          "the remediation kill switch is on: no run starts until an admin turns it off");
    }
    if (g.breakerOpen()) {
      return Optional.of(
          "the circuit breaker is open after "
              + g.failuresInARow()
              + " failed runs in a row: an admin resets it once the cause is understood");
    }
    Instant now = clock.instant();
    if (g.cooldownMinutes() > 0) {
      Instant since = now.minus(Duration.ofMinutes(g.cooldownMinutes()));
      for (Run r : runs.values()) {
        if (r.node().equals(run.node())
            && !r.id().equals(run.id())
            && !r.dryRun()
            && r.state().isFinal()
            && r.state() != RunState.ESCALATED
            && r.updated().isAfter(since)) {
          return Optional.of(
              "cooldown: the node's run "
                  + r.id()
                  + " ended at "
                  + r.updated()
                  + "; the next may start after "
                  + r.updated().plus(Duration.ofMinutes(g.cooldownMinutes())));
        }
      }
    }
    List<Run> isolating = isolating(run, view.machines());
    Set<String> byHand = outByHand(view.machines(), isolating, run.hostname());
    int fleetSize = view.fleetSize();
    int limit = Math.max(1, fleetSize * g.maxIsolatedPercent() / 100);
    if (isolating.size() + byHand.size() >= limit) {
      return Optional.of(
          "isolation limit: "
              + (isolating.size() + byHand.size())
              + " of "
              + limit
              + " node(s) already isolated ("
              + g.maxIsolatedPercent()
              + "% of "
              + fleetSize
              + " nodes)"
              + (byHand.isEmpty() ? "" : ", " + byHand.size() + " of them taken out by hand"));
    }
    Optional<Machine> machine = machineOf(run.node(), view.machines());
    String rack = machine.map(Machine::rack).orElse("");
    if (!rack.isEmpty() && g.maxIsolatedPerRack() > 0) {
      Map<MachineId, String> racks = new HashMap<>();
      for (Machine x : view.machines()) {
        racks.put(x.id(), x.rack());
      }
      long inRack =
          isolating.stream()
              .filter(r -> r.machine() != null && rack.equals(racks.get(r.machine())))
              .count();
      if (inRack >= g.maxIsolatedPerRack()) {
        return Optional.of(
            "rack limit: "
                + inRack
                + " node(s) of rack "
                + rack
                + " already isolated (at most "
                + g.maxIsolatedPerRack()
                + ")");
      }
    }
    if (g.minAvailablePerPool() > 0) {
      Set<String> busy = new java.util.HashSet<>(byHand);
      for (Run r : isolating) {
        busy.add(r.hostname());
      }
      Optional<String> pool = poolRefusal(run.hostname(), busy, g.minAvailablePerPool(), now);
      if (pool.isPresent()) {
        return pool;
      }
    }
    return Optional.empty();
  }

  /**
   * Returns why taking deployed machine {@code m} out of service by hand (a power-off, a release…)
   * would break a guardrail now, or empty: the kill switch, the circuit breaker, the site's
   * isolation limit (runs and machines taken out by hand together) and the nodes a partition keeps.
   */
  Optional<String> handRefusal(Machine m) {
    Guardrails g = guardrails;
    if (killed) {
      return Optional.of(
          "the remediation kill switch is on: no node is taken out of service until an admin"
              + " turns it off");
    }
    if (g.breakerOpen()) {
      return Optional.of(
          "the remediation circuit breaker is open after "
              + g.failuresInARow()
              + " failed runs in a row: no node is taken out of service until an admin resets it");
    }
    View view = view();
    List<Run> isolating = isolating(null, view.machines());
    isolating.removeIf(r -> r.hostname().equals(m.hostname()));
    Set<String> byHand = outByHand(view.machines(), isolating, m.hostname());
    int limit = Math.max(1, view.fleetSize() * g.maxIsolatedPercent() / 100);
    int out = isolating.size() + byHand.size();
    if (out >= limit) {
      return Optional.of(
          "isolation limit: "
              + out
              + " of "
              + limit
              + " node(s) already out of service ("
              + isolating.size()
              + " by remediation runs, "
              + byHand.size()
              + " by hand; at most "
              + g.maxIsolatedPercent()
              + "% of "
              + view.fleetSize()
              + " nodes)");
    }
    if (g.minAvailablePerPool() > 0) {
      Set<String> busy = new java.util.HashSet<>(byHand);
      for (Run r : isolating) {
        busy.add(r.hostname());
      }
      return poolRefusal(m.hostname(), busy, g.minAvailablePerPool(), clock.instant());
    }
    return Optional.empty();
  }

  /**
   * Returns the host names of the machines a person took out of service by hand: deployed (their
   * work is expected on them), yet powered off, powering off, with a power-off or cycle under way,
   * or in rescue mode; not those a run in {@code isolating} holds, nor {@code except}.
   */
  static Set<String> outByHand(List<Machine> all, List<Run> isolating, String except) {
    Set<MachineId> held = new java.util.HashSet<>();
    for (Run r : isolating) {
      if (r.machine() != null) {
        held.add(r.machine());
      }
    }
    Set<String> out = new java.util.TreeSet<>();
    for (Machine x : all) {
      if (held.contains(x.id()) || x.hostname().equals(except)) {
        continue;
      }
      boolean off =
          x.state() == MachineState.DEPLOYED
              && (x.power() == PowerState.OFF
                  || x.power() == PowerState.POWERING_OFF
                  || Set.of("power-off", "soft-off", "power-cycle").contains(x.pending()));
      boolean rescue =
          x.state() == MachineState.ENTERING_RESCUE_MODE || x.state() == MachineState.RESCUE_MODE;
      if (off || rescue) {
        out.add(x.hostname());
      }
    }
    return out;
  }

  private Optional<String> poolRefusal(String hostname, Set<String> busy, int min, Instant now) {
    Optional<Schedulers.Located> located;
    try {
      located = schedulers.locate(hostname);
    } catch (SchedulerException e) {
      return Optional.of(
          "the scheduler could not be asked whether "
              + hostname
              + "'s partition can spare it: "
              + e.getMessage());
    }
    if (located.isEmpty()) {
      return Optional.empty();
    }
    List<SchedulerNode> all;
    try {
      all = schedulers.nodes(located.get().connector(), now.toEpochMilli());
    } catch (SchedulerException e) {
      return Optional.of(
          "the scheduler could not be asked whether "
              + hostname
              + "'s partition can spare it: "
              + e.getMessage());
    }
    for (String p : new java.util.TreeSet<>(located.get().node().pools())) {
      long available =
          all.stream()
              .filter(n -> n.pools().contains(p))
              .filter(n -> n.state() == SchedulerState.AVAILABLE)
              .filter(n -> !n.name().equals(hostname) && !busy.contains(n.name()))
              .count();
      if (available < min) {
        return Optional.of(
            "partition "
                + p
                + " of "
                + located.get().connector().name()
                + " would keep "
                + available
                + " available node(s) without "
                + hostname
                + "; at least "
                + min
                + " are kept");
      }
    }
    return Optional.empty();
  }

  /**
   * Returns the runs whose node remediation holds out of service now, one per node (its latest
   * run): runs under way, and ended runs that left the node out: a failed or cancelled run that
   * drained it, while its machine is still Quarantined or Broken (or, with no machine linked, for a
   * day), and a run that marked its machine Broken. {@code except}: a run not to count (null:
   * none).
   */
  private List<Run> isolating(Run except, List<Machine> all) {
    Map<NodeId, Run> latest = new HashMap<>();
    for (Run r : runs.values()) {
      if (r.dryRun() || (except != null && r.id().equals(except.id()))) {
        continue;
      }
      latest.merge(r.node(), r, (a, b) -> a.created().isAfter(b.created()) ? a : b);
    }
    Map<MachineId, MachineState> states = new HashMap<>();
    for (Machine x : all) {
      states.put(x.id(), x.state());
    }
    Instant dayAgo = clock.instant().minus(Duration.ofDays(1));
    List<Run> out = new ArrayList<>();
    for (Run r : latest.values()) {
      if (r.state() == RunState.RUNNING || r.state() == RunState.AWAITING_APPROVAL) {
        out.add(r);
        continue;
      }
      if (r.state() == RunState.HELD) {
        continue;
      }
      boolean drained =
          r.steps().stream()
              .anyMatch(s -> s.step().step().equals("drain") && s.status() == StepStatus.DONE);
      MachineState state = r.machine() == null ? null : states.get(r.machine());
      boolean outOfService =
          state == MachineState.QUARANTINED
              || state == MachineState.REMEDIATING
              || state == MachineState.BROKEN;
      if (state != null
          ? outOfService && (drained || state == MachineState.BROKEN)
          : drained && r.state() != RunState.SUCCEEDED && r.updated().isAfter(dayAgo)) {
        out.add(r);
      }
    }
    return out;
  }

  /** Moves the run's machine to Remediating; returns why it cannot, or empty. */
  private Optional<String> isolateMachine(Run run) {
    MachineService m = machines;
    if (run.machine() == null || m == null) {
      return Optional.empty();
    }
    Optional<Machine> found = m.machine(run.machine());
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Machine machine = found.get();
    String reason = "remediation run " + run.id() + ": " + run.findingSummary();
    try {
      if (machine.state() == MachineState.REMEDIATING) {
        return Optional.empty();
      }
      if (machine.state() != MachineState.QUARANTINED) {
        Optional<String> refused = m.refusal(machine.id(), MachineOperation.QUARANTINE);
        if (refused.isPresent()) {
          return Optional.of(
              "machine " + machine.id() + " cannot be quarantined: " + refused.get());
        }
        m.operate(machine.id(), MachineOperation.QUARANTINE, reason, BULWARK);
      }
      m.operate(machine.id(), MachineOperation.REMEDIATE, reason, BULWARK);
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of("machine " + machine.id() + " could not be isolated: " + e.getMessage());
    }
  }

  // ---- the loop ----

  private void tickQuietly() {
    try {
      tick();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Remediation: a pass over the runs failed: " + e.getMessage(), e);
    }
  }

  /** Lets held runs start if they may, and calls every run whose step is due. */
  void tick() {
    if (!orphansChecked) {
      releaseOrphans();
    }
    if (!findingsScanned) {
      scanOpenFindings(null);
    }
    Instant now = clock.instant();
    List<Run> held =
        runs.values().stream()
            .filter(r -> r.state() == RunState.HELD)
            .sorted(Comparator.comparing(Run::created).thenComparing(Run::id))
            .toList();
    View view = held.isEmpty() ? null : view();
    for (Run r : held) {
      Run after = admit(r, view);
      if (after.state() == RunState.RUNNING) {
        dispatch(after.id());
      }
    }
    Guardrails g = guardrails;
    if (killed || g.breakerOpen()) {
      return;
    }
    for (Run r : runs.values()) {
      if (r.state() == RunState.RUNNING
          && (r.nextCheck() == null || !r.nextCheck().isAfter(now))
          && !inFlight.contains(r.id())) {
        dispatch(r.id());
      }
    }
  }

  /** Hands the run to a worker unless it waits for one already (a run is queued at most once). */
  private void dispatch(String id) {
    if (!queued.add(id)) {
      return;
    }
    workers.execute(
        () -> {
          queued.remove(id);
          advance(id);
        });
  }

  /**
   * Starts runs for the open findings that have none: at start (findings opened while the engine
   * was away) and when a node's run ends (a finding that arrived while it ran). {@code node} null:
   * every node.
   */
  private void scanOpenFindings(NodeId node) {
    FindingRepository repo = findings;
    if (repo == null) {
      return;
    }
    if (node == null) {
      findingsScanned = true;
    }
    io.bulwark.api.health.FindingQuery q = io.bulwark.api.health.FindingQuery.open();
    if (node != null) {
      q = q.withNode(node);
    }
    for (Finding f : repo.find(q)) {
      if (f.isOpen() && !hasRunFor(f.id())) {
        try {
          startFor(f, null, BULWARK);
        } catch (RuntimeException e) {
          LOG.log(
              Level.WARNING, "Remediation: no run for finding " + f.id() + ": " + e.getMessage());
        }
      }
    }
  }

  /** After a restart: a machine left Remediating by no run goes back to Quarantined. */
  private void releaseOrphans() {
    MachineService m = machines;
    if (m == null) {
      return;
    }
    orphansChecked = true;
    for (Machine machine : m.machines()) {
      if (machine.state() != MachineState.REMEDIATING) {
        continue;
      }
      boolean held =
          runs.values().stream()
              .anyMatch(r -> machine.id().equals(r.machine()) && !r.state().isFinal());
      if (!held) {
        try {
          m.operate(
              machine.id(),
              MachineOperation.ABORT,
              "no remediation run holds it any more: it stays quarantined for a person",
              BULWARK);
        } catch (RuntimeException e) {
          LOG.log(Level.WARNING, "Machine {0}: {1}", machine.id(), e.getMessage());
        }
      }
    }
  }

  /** Calls the run's current step once (never twice at a time) and records what came of it. */
  void advance(String id) {
    if (!inFlight.add(id)) {
      return;
    }
    try {
      // Steps that end at once (done, skipped) are followed by the next without waiting for a tick.
      for (int i = 0; i < 20 && advanceOnce(id); i++) {
        // again
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Remediation run " + id + ": " + e.getMessage(), e);
    } finally {
      inFlight.remove(id);
    }
  }

  /** Calls the step once; returns true if the run moved on to a step that is due now. */
  private boolean advanceOnce(String id) {
    Run before = runs.get(id);
    advanceStep(id);
    Run after = runs.get(id);
    return before != null
        && after != null
        && after.state() == RunState.RUNNING
        && after.current() != before.current()
        && (after.nextCheck() == null || !after.nextCheck().isAfter(clock.instant()));
  }

  private void advanceStep(String id) {
    Guardrails g = guardrails;
    if (killed || g.breakerOpen() || stopping) {
      return;
    }
    Run run;
    Optional<String> machineGone;
    // Read under the engine's lock: a run that admit() just stored as running has its machine
    // moved (Quarantined, then Remediating) before the lock is released, so that the machine's
    // passing through Quarantined is never taken for other hands.
    synchronized (this) {
      run = runs.get(id);
      if (run == null || run.state() != RunState.RUNNING) {
        return;
      }
      machineGone = machineLeft(run);
    }
    Instant now = clock.instant();
    if (run.nextCheck() != null && run.nextCheck().isAfter(now)) {
      return; // a wait not over yet
    }
    StepRecord current = run.currentStep();
    if (current == null) {
      succeed(run);
      return;
    }
    if (machineGone.isPresent()) {
      escalate(run, current, machineGone.get());
      return;
    }
    PolicyStep ps = current.step();
    RemediationStep impl = steps.get(ps.step());
    if (impl == null && Duration.between(startedAt, now).compareTo(STEP_GRACE) < 0) {
      // Just started: the bundle that provides the step may not be bound yet.
      Run waiting =
          run.with(
              RunState.RUNNING,
              run.current(),
              replace(
                  run,
                  current.withDetail(
                      "waiting for the bundle that provides " + ps.step() + " to start")),
              "",
              now,
              now.plusSeconds(2),
              run.approvedBy());
      saveIfRunning(run, waiting, "wait for step " + ps.step());
      return;
    }
    if (impl == null) {
      String why = "no installed bundle provides the step " + ps.step();
      if (ps.optional()) {
        next(run, current, StepStatus.SKIPPED, why + " (optional: skipped)", Map.of());
      } else {
        fail(run, current, why + ": install it, or change the policy " + run.policyId(), Map.of());
      }
      return;
    }
    if (current.status() == StepStatus.PENDING && impl.disturbsWork() && !jobsKillApproved(run)) {
      Optional<String> undrained = undrained(run);
      if (undrained.isPresent()) {
        // Whatever the mode: nothing confirmed the node free of work, so a person decides.
        Map<String, String> evidence = new TreeMap<>(current.evidence());
        evidence.put(APPROVAL, KILLS_JOBS);
        StepRecord asking =
            new StepRecord(
                    current.step(),
                    current.status(),
                    current.started(),
                    current.ended(),
                    current.attempts(),
                    current.detail(),
                    current.memo(),
                    evidence)
                .withDetail(
                    "waits for a person to approve: "
                        + describe(impl, run, current)
                        + "; "
                        + undrained.get()
                        + ": approving it kills any job still running on "
                        + run.hostname()
                        + disturbingAfter(run));
        Run waiting =
            run.with(
                RunState.AWAITING_APPROVAL,
                run.current(),
                replace(run, asking),
                "",
                now,
                null,
                run.approvedBy());
        saveIfRunning(run, waiting, "await approval of a step on an undrained node");
        return;
      }
    }
    if (current.status() == StepStatus.PENDING && impl.destructive()) {
      if (run.mode() == PolicyMode.APPROVE_DESTRUCTIVE
          && !run.approvedBy().startsWith(ps.step() + "#" + run.current() + ":")) {
        Run waiting =
            run.with(
                RunState.AWAITING_APPROVAL,
                run.current(),
                replace(
                    run,
                    current.withDetail(
                        "waits for a person to approve: " + describe(impl, run, current))),
                "",
                now,
                null,
                run.approvedBy());
        saveIfRunning(run, waiting, "await approval");
        return;
      }
      if (!g.windows().isEmpty() && !inWindow(g, now)) {
        Run waiting =
            run.with(
                RunState.RUNNING,
                run.current(),
                replace(run, current.withDetail("waits for a maintenance window " + g.windows())),
                "",
                now,
                now.plusSeconds(60),
                run.approvedBy());
        saveIfRunning(run, waiting, "wait for a maintenance window");
        return;
      }
    }
    int attempt = current.attempts() + 1;
    StepRecord started =
        new StepRecord(
            ps,
            current.status() == StepStatus.WAITING ? StepStatus.WAITING : StepStatus.RUNNING,
            current.started() == null ? now : current.started(),
            null,
            attempt,
            current.status() == StepStatus.RUNNING && current.attempts() > 0
                ? "re-checked after an interruption: " + current.detail()
                : current.detail(),
            current.memo(),
            current.evidence());
    Run before =
        run.with(
            RunState.RUNNING,
            run.current(),
            replace(run, started),
            "",
            now,
            null,
            run.approvedBy());
    if (!saveIfRunning(run, before, "record step " + ps.step())) {
      return;
    }
    if (current.status() == StepStatus.PENDING) {
      audit("remediation.step-start", before, AuditOutcome.SUCCESS, Map.of("step", ps.toString()));
    }
    Context ctx = new Context(before, started, now);
    StepOutcome outcome;
    try {
      outcome = impl.perform(ctx);
    } catch (Exception e) {
      outcome = StepOutcome.failed(ps.step() + " failed: " + e.getMessage());
      LOG.log(
          Level.WARNING,
          "Remediation run " + id + ", step " + ps.step() + ": " + e.getMessage(),
          e);
    }
    if (stopping || Thread.currentThread().isInterrupted()) {
      return; // the appliance is stopping: the step is re-checked after the restart
    }
    Run after = runs.get(id);
    if (after == null || after.state() != RunState.RUNNING) {
      return; // cancelled while the step ran: its outcome is not acted on
    }
    StepRecord mine = after.currentStep();
    Map<String, String> evidence = new TreeMap<>(mine.evidence());
    evidence.putAll(outcome.evidence());
    switch (outcome.status()) {
      case DONE -> next(after, mine, StepStatus.DONE, outcome.detail(), evidence);
      case SKIPPED -> next(after, mine, StepStatus.SKIPPED, outcome.detail(), evidence);
      case FAILED -> fail(after, mine, outcome.detail(), evidence);
      case WAIT -> {
        Instant t = clock.instant();
        Duration d = outcome.recheckAfter().isNegative() ? Duration.ZERO : outcome.recheckAfter();
        StepRecord waiting =
            new StepRecord(
                mine.step(),
                StepStatus.WAITING,
                mine.started(),
                null,
                mine.attempts(),
                outcome.detail(),
                mine.memo(),
                evidence);
        saveIfRunning(
            after,
            after.with(
                RunState.RUNNING,
                after.current(),
                replace(after, waiting),
                "",
                t,
                t.plus(d),
                after.approvedBy()),
            "wait in step " + ps.step());
      }
    }
  }

  /**
   * Returns why the run must stop because its machine left Remediating by other hands (an operator
   * aborted it, marked it broken, or deleted it), or empty.
   */
  private Optional<String> machineLeft(Run run) {
    MachineService m = machines;
    if (run.machine() == null || m == null) {
      return Optional.empty();
    }
    Optional<Machine> found = m.machine(run.machine());
    if (found.isEmpty()) {
      return Optional.of("machine " + run.machine() + " was deleted while the run held it");
    }
    Machine x = found.get();
    if (x.state() == MachineState.REMEDIATING) {
      return Optional.empty();
    }
    return Optional.of(
        "machine "
            + x.id()
            + " left Remediating (it is "
            + x.state().label()
            + ": "
            + x.stateReason()
            + "); the run stops so that it does not act on a machine someone else took");
  }

  private synchronized void escalate(Run run, StepRecord step, String why) {
    Run now = runs.get(run.id());
    if (now == null || now.state() != RunState.RUNNING) {
      return;
    }
    List<StepRecord> list = new ArrayList<>(now.steps());
    for (int i = now.current(); i < list.size(); i++) {
      list.set(i, list.get(i).withStatus(StepStatus.CANCELLED));
    }
    end(now, RunState.ESCALATED, why, list);
    LOG.log(Level.WARNING, "Remediation of {0}: {1}", now.node(), why);
  }

  private static boolean inWindow(Guardrails g, Instant now) {
    LocalTime t = LocalTime.ofInstant(now, ZoneId.systemDefault());
    return g.windows().stream().anyMatch(w -> w.contains(t));
  }

  private String describe(RemediationStep impl, Run run, StepRecord s) {
    try {
      return impl.describe(new Context(run, s, clock.instant()), s.step().parameters());
    } catch (RuntimeException e) {
      return s.step().toString();
    }
  }

  private void next(
      Run run, StepRecord step, StepStatus status, String detail, Map<String, String> evidence) {
    Instant now = clock.instant();
    StepRecord ended =
        new StepRecord(
            step.step(),
            status,
            step.started() == null ? now : step.started(),
            now,
            step.attempts(),
            detail,
            step.memo(),
            evidence);
    Run moved =
        run.with(
            RunState.RUNNING,
            run.current() + 1,
            replace(run, ended),
            "",
            now,
            now,
            run.approvedBy());
    if (!saveIfRunning(run, moved, "end step " + step.step().step())) {
      return;
    }
    audit(
        "remediation.step-end",
        moved,
        AuditOutcome.SUCCESS,
        Map.of("step", step.step().toString(), "status", status.apiName(), "detail", clip(detail)));
    if (moved.current() >= moved.steps().size()) {
      succeed(moved);
    } else {
      dispatch(moved.id());
    }
  }

  private synchronized void succeed(Run run) {
    Run now = runs.get(run.id());
    if (now == null || now.state() != RunState.RUNNING) {
      return;
    }
    MachineService m = machines;
    if (now.machine() != null && m != null) {
      m.machine(now.machine())
          .filter(x -> x.state() == MachineState.REMEDIATING)
          .ifPresent(
              x -> {
                try {
                  m.complete(
                      x.id(),
                      "remediation run " + now.id() + " ended well: back in service",
                      BULWARK);
                } catch (RuntimeException e) {
                  LOG.log(Level.WARNING, "Machine {0}: {1}", x.id(), e.getMessage());
                }
              });
    }
    end(now, RunState.SUCCEEDED, "", now.steps());
    Guardrails g = guardrails;
    if (g.failuresInARow() != 0) {
      saveGuardrailsNow(g.withSwitches(g.killSwitch(), g.breakerOpen(), 0));
    }
  }

  private synchronized void fail(
      Run run, StepRecord step, String detail, Map<String, String> evidence) {
    Run now = runs.get(run.id());
    if (now == null || now.state() != RunState.RUNNING) {
      return;
    }
    Instant t = clock.instant();
    StepRecord failed =
        new StepRecord(
            step.step(),
            StepStatus.FAILED,
            step.started() == null ? t : step.started(),
            t,
            step.attempts(),
            detail,
            step.memo(),
            evidence);
    List<StepRecord> list = new ArrayList<>(replace(now, failed));
    for (int i = now.current() + 1; i < list.size(); i++) {
      list.set(i, list.get(i).withStatus(StepStatus.CANCELLED));
    }
    Run ended =
        end(now, RunState.FAILED, "failed at step " + step.step().step() + ": " + detail, list);
    requarantine(
        now, "remediation run " + now.id() + " failed at " + step.step().step() + ": " + detail);
    boolean wasDrained =
        ended.steps().stream()
            .anyMatch(x -> x.step().step().equals("drain") && x.status() == StepStatus.DONE);
    LOG.log(
        Level.WARNING,
        "Remediation of {0} failed at step {1}: {2}. {3} A person takes it from here (run {4}).",
        now.node(),
        step.step().step(),
        detail,
        wasDrained
            ? "The node stays drained in its scheduler."
            : "The node was not drained by this run: it may still take work.",
        now.id());
    Guardrails g = guardrails;
    int failures = g.failuresInARow() + 1;
    boolean open = g.breakerOpen() || failures >= g.breakerFailures();
    saveGuardrailsNow(g.withSwitches(g.killSwitch(), open, failures));
    if (open && !g.breakerOpen()) {
      LOG.log(
          Level.ERROR,
          "Remediation: {0} runs failed in a row; the circuit breaker is open and all automation"
              + " stops until an admin resets it",
          failures);
      audit.append(
          new AuditEvent(
              BULWARK,
              "appliance",
              "remediation.breaker-open",
              "",
              AuditOutcome.SUCCESS,
              Map.of("failuresInARow", Integer.toString(failures))));
    }
  }

  private void requarantine(Run run, String reason) {
    MachineService m = machines;
    if (run.machine() == null || m == null) {
      return;
    }
    m.machine(run.machine())
        .filter(x -> x.state() == MachineState.REMEDIATING)
        .ifPresent(
            x -> {
              try {
                m.operate(x.id(), MachineOperation.ABORT, reason, BULWARK);
              } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Machine {0}: {1}", x.id(), e.getMessage());
              }
            });
  }

  /**
   * Returns true if a person approved a step of {@code run}, up to its current one, knowing that it
   * kills the node's jobs: that approval lets the run's later steps that disturb work go on too.
   */
  static boolean jobsKillApproved(Run run) {
    for (int i = 0; i <= run.current() && i < run.steps().size(); i++) {
      if (run.steps().get(i).evidence().containsKey(JOBS_KILLED_APPROVED_BY)) {
        return true;
      }
    }
    return false;
  }

  /** Names the later steps of {@code run} that the same approval lets go on, or "". */
  private String disturbingAfter(Run run) {
    List<String> later = new ArrayList<>();
    for (int i = run.current() + 1; i < run.steps().size(); i++) {
      RemediationStep impl = steps.get(run.steps().get(i).step().step());
      if (impl != null && impl.disturbsWork()) {
        later.add(run.steps().get(i).step().step());
      }
    }
    return later.isEmpty() ? "" : "; the approval also lets " + String.join(", ", later) + " go on";
  }

  /**
   * Returns why the node of {@code run} is not known to be free of work before its current step: an
   * earlier step found that no scheduler runs it and no step since confirmed it drained; empty when
   * a scheduler confirmed it drained, or when no step looked (the step itself refuses then).
   */
  static Optional<String> undrained(Run run) {
    boolean noScheduler = false;
    for (int i = 0; i < run.current() && i < run.steps().size(); i++) {
      StepRecord s = run.steps().get(i);
      if (s.status() == StepStatus.DONE && s.evidence().containsKey("drained")) {
        return Optional.empty();
      }
      noScheduler |=
          s.status() == StepStatus.SKIPPED && "true".equals(s.evidence().get("noScheduler"));
    }
    return noScheduler ? Optional.of("no scheduler drains " + run.hostname()) : Optional.empty();
  }

  private Run dryRun(Run run, String held) {
    Instant now = clock.instant();
    List<StepRecord> shown = new ArrayList<>();
    for (StepRecord s : run.steps()) {
      RemediationStep impl = steps.get(s.step().step());
      String detail =
          impl == null
              ? "no installed bundle provides the step "
                  + s.step().step()
                  + (s.step().optional()
                      ? " (optional: it would be skipped)"
                      : ": the run would fail here")
              : describe(impl, run, s)
                  + (impl.destructive() ? " [destructive]" : "")
                  + (impl.disturbsWork() && unscheduled(run)
                      ? "; would wait for approval: no scheduler drains this node (approving it"
                          + " kills any job running on it)"
                      : "");
      shown.add(
          new StepRecord(s.step(), StepStatus.WOULD_RUN, now, now, 0, detail, Map.of(), Map.of()));
    }
    return end(run, RunState.SUCCEEDED, held, shown);
  }

  /** Returns true if no scheduler connector is installed, so none would drain the run's node. */
  private boolean unscheduled(Run run) {
    return schedulers.connectors().isEmpty() && !schedulers.starting();
  }

  private synchronized Run end(Run run, RunState state, String held, List<StepRecord> list) {
    Instant now = clock.instant();
    Run ended =
        run.with(
            state,
            state == RunState.SUCCEEDED ? list.size() : run.current(),
            list,
            held,
            now,
            null,
            run.approvedBy());
    save(ended, "end remediation run " + run.id());
    audit(
        "remediation.run-end",
        ended,
        state == RunState.SUCCEEDED || state == RunState.CANCELLED
            ? AuditOutcome.SUCCESS
            : AuditOutcome.FAILURE,
        Map.of("state", state.apiName(), "detail", clip(held)));
    findingsCache.remove(run.id());
    prune();
    if (!stopping) {
      // A finding that opened on the node while this run held it gets its own run now.
      NodeId node = run.node();
      workers.execute(() -> scanOpenFindings(node));
    }
    return ended;
  }

  /** Stores {@code next} if the run is still where {@code expected} left it. */
  private synchronized boolean saveIfRunning(Run expected, Run next, String what) {
    Run now = runs.get(expected.id());
    if (now == null || now.state() != RunState.RUNNING) {
      return false;
    }
    save(next, what + " of remediation run " + expected.id());
    return true;
  }

  private static List<StepRecord> replace(Run run, StepRecord step) {
    List<StepRecord> list = new ArrayList<>(run.steps());
    list.set(run.current(), step);
    return list;
  }

  private void save(Run run, String what) {
    store.write(
        what,
        WritePriority.RESERVED,
        w -> {
          w.map(RemediationFormats.RUNS).put(run.id(), run);
          return null;
        });
    runs.put(run.id(), run);
    for (Consumer<Run> l : listeners) {
      try {
        l.accept(run);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "A remediation listener failed", e);
      }
    }
  }

  private void prune() {
    List<Run> ended =
        runs.values().stream()
            .filter(r -> r.state().isFinal())
            .sorted(Comparator.comparing(Run::updated))
            .toList();
    int excess = ended.size() - keepRuns;
    if (excess <= 0) {
      return;
    }
    List<Run> drop = ended.subList(0, excess);
    store.write(
        "drop the oldest ended remediation runs",
        WritePriority.ROUTINE,
        w -> {
          for (Run r : drop) {
            w.map(RemediationFormats.RUNS).remove(r.id());
          }
          return null;
        });
    drop.forEach(r -> runs.remove(r.id()));
  }

  private void audit(String action, Run run, AuditOutcome outcome, Map<String, String> details) {
    Map<String, String> d = new LinkedHashMap<>(details);
    d.put("run", run.id());
    d.put("node", run.node().value());
    audit.append(new AuditEvent(BULWARK, "appliance", action, run.hostname(), outcome, d));
  }

  private static String clip(String s) {
    return s.length() <= 500 ? s : s.substring(0, 497) + "...";
  }

  static String words(Duration d) {
    long m = d.toMinutes();
    if (m % (24 * 60) == 0) {
      return (m / (24 * 60)) + " day(s)";
    }
    if (m % 60 == 0) {
      return (m / 60) + " hour(s)";
    }
    return m + " minute(s)";
  }

  // ---- the service ----

  @Override
  public List<Run> runs(int limit) {
    return runs.values().stream()
        .sorted(
            Comparator.comparing(Run::created)
                .reversed()
                .thenComparing(Run::id, Comparator.reverseOrder()))
        .limit(Math.max(0, limit))
        .toList();
  }

  @Override
  public Optional<Run> run(String id) {
    return Optional.ofNullable(runs.get(id));
  }

  @Override
  public List<Policy> policies() {
    return store.read(r -> r.map(RemediationFormats.POLICIES).entries()).stream()
        .map(Map.Entry::getValue)
        .sorted(Comparator.comparing(Policy::id))
        .toList();
  }

  @Override
  public List<Policy> policyHistory(String id) {
    return store.read(r -> r.map(RemediationFormats.POLICY_VERSIONS).entries()).stream()
        .filter(e -> e.getKey().startsWith(id + "@"))
        .sorted(Map.Entry.comparingByKey())
        .map(Map.Entry::getValue)
        .toList();
  }

  /** The steps that disturb work on the node itself: only after the node is drained. */
  static final Set<String> NEEDS_DRAINED = Set.of("power-cycle", "gpu-reset", "dcgm-diag");

  /** The numeric parameters of the built-in steps: whole numbers of 1 or more. */
  private static final Set<String> POSITIVE =
      Set.of("timeoutMinutes", "bootSeconds", "silenceMinutes", "level");

  /**
   * Checks a policy before it is stored: every step installed (or optional), the parameters of the
   * built-in steps usable, and no step that disturbs the node's work before a wait for the drain.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  void checkPolicy(Policy policy) {
    for (List<PolicyStep> ladder : List.of(policy.steps(), policy.recurrenceSteps())) {
      boolean waited = false;
      for (PolicyStep s : ladder) {
        if (!s.optional() && !steps.containsKey(s.step())) {
          throw new IllegalArgumentException(
              "no installed bundle provides the step '"
                  + s.step()
                  + "' (installed: "
                  + new java.util.TreeSet<>(steps.keySet())
                  + "); mark it optional or choose another");
        }
        for (Map.Entry<String, String> p : s.parameters().entrySet()) {
          if (POSITIVE.contains(p.getKey())) {
            SchedulerSteps.positive(p.getValue(), s.step() + "'s " + p.getKey());
          }
          if (p.getKey().equals("soakSeconds") && !p.getValue().strip().matches("[0-9]{1,5}")) {
            throw new IllegalArgumentException(
                "the parameter soakSeconds of "
                    + s.step()
                    + " is a whole number of seconds, not '"
                    + p.getValue()
                    + "'");
          }
          if (p.getKey().equals("onTimeout") && !Set.of("fail", "proceed").contains(p.getValue())) {
            throw new IllegalArgumentException(
                "onTimeout of " + s.step() + " is fail or proceed, not '" + p.getValue() + "'");
          }
        }
        if (s.step().equals("wait-drained")) {
          waited = !"proceed".equals(s.parameters().get("onTimeout"));
        }
        if (NEEDS_DRAINED.contains(s.step()) && !waited) {
          throw new IllegalArgumentException(
              "the step "
                  + s.step()
                  + " disturbs the node's work: put drain and wait-drained (without"
                  + " onTimeout=proceed) before it");
        }
      }
    }
  }

  @Override
  public synchronized Policy savePolicy(Policy policy, String by) {
    checkPolicy(policy);
    Instant now = clock.instant();
    return store.write(
        "store policy " + policy.id(),
        WritePriority.RESERVED,
        w -> {
          var current = w.map(RemediationFormats.POLICIES);
          Policy before = current.get(policy.id());
          Policy saved =
              before == null
                  ? new Policy(
                      policy.id(),
                      policy.name(),
                      policy.description(),
                      policy.kinds(),
                      policy.minSeverity(),
                      policy.xids(),
                      policy.steps(),
                      policy.recurrenceSteps(),
                      policy.mode(),
                      policy.enabled(),
                      policy.priority(),
                      1,
                      by,
                      now)
                  : before.nextVersion(policy, by, now);
          current.put(saved.id(), saved);
          w.map(RemediationFormats.POLICY_VERSIONS)
              .put(RemediationFormats.versionKey(saved.id(), saved.version()), saved);
          return saved;
        });
  }

  private static List<PolicyStep> concat(List<PolicyStep> a, List<PolicyStep> b) {
    List<PolicyStep> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  @Override
  public Guardrails guardrails() {
    Guardrails g = guardrails;
    return g.killSwitch() == killed
        ? g
        : g.withSwitches(killed, g.breakerOpen(), g.failuresInARow());
  }

  @Override
  public synchronized Guardrails saveGuardrails(Guardrails limits, String by) {
    Guardrails g = guardrails;
    return saveGuardrailsNow(
        limits.withSwitches(g.killSwitch(), g.breakerOpen(), g.failuresInARow()));
  }

  @Override
  public Guardrails killSwitch(boolean on, String by) {
    // Takes effect at once, before the engine's lock is free (a pass over many runs may hold it).
    killed = on;
    LOG.log(Level.WARNING, "Remediation kill switch turned {0} by {1}", on ? "on" : "off", by);
    synchronized (this) {
      Guardrails g = guardrails;
      return saveGuardrailsNow(g.withSwitches(on, g.breakerOpen(), g.failuresInARow()));
    }
  }

  @Override
  public synchronized Guardrails resetBreaker(String by) {
    Guardrails g = guardrails;
    LOG.log(Level.INFO, "Remediation circuit breaker reset by {0}", by);
    return saveGuardrailsNow(g.withSwitches(g.killSwitch(), false, 0));
  }

  private synchronized Guardrails saveGuardrailsNow(Guardrails wanted) {
    Guardrails g = wanted.withSwitches(killed, wanted.breakerOpen(), wanted.failuresInARow());
    store.write(
        "store the remediation guardrails",
        WritePriority.RESERVED,
        w -> {
          w.map(RemediationFormats.SETTINGS).put(RemediationFormats.GUARDRAILS_KEY, g);
          return null;
        });
    guardrails = g;
    return g;
  }

  @Override
  public Run start(String findingId, String policyId, String by) {
    FindingRepository repo = findings;
    Finding f = repo == null ? null : repo.get(findingId).orElse(null);
    if (f == null) {
      throw new NoSuchElementException("no finding " + findingId);
    }
    if (!f.isOpen()) {
      throw new IllegalStateException(
          "finding " + findingId + " is resolved: nothing to remediate");
    }
    Run r = startFor(f, policyId, by);
    if (r == null) {
      throw new NoSuchElementException(
          "no enabled policy answers finding " + findingId + " (" + f.kind() + "): name one");
    }
    return r;
  }

  @Override
  public synchronized Run cancel(String id, String reason, String by) {
    Run r = runs.get(id);
    if (r == null) {
      throw new NoSuchElementException("no remediation run " + id);
    }
    if (r.state().isFinal()) {
      throw new IllegalStateException("run " + id + " has ended (" + r.state().apiName() + ")");
    }
    List<StepRecord> list = new ArrayList<>(r.steps());
    for (int i = r.current(); i < list.size(); i++) {
      StepRecord s = list.get(i);
      list.set(i, s.withStatus(StepStatus.CANCELLED));
    }
    String why =
        "cancelled by " + by + (reason == null || reason.isBlank() ? "" : ": " + reason.strip());
    Run ended = end(r, RunState.CANCELLED, why, list);
    requarantine(r, "remediation run " + id + " " + why + "; the node stays isolated for a person");
    return ended;
  }

  @Override
  public synchronized Run approve(String id, int step, String by, boolean jobsMayBeKilled) {
    Run r = runs.get(id);
    if (r == null) {
      throw new NoSuchElementException("no remediation run " + id);
    }
    if (r.state() != RunState.AWAITING_APPROVAL) {
      throw new IllegalStateException(
          "run " + id + " waits on no approval (it is " + r.state().apiName() + ")");
    }
    if (step != r.current()) {
      throw new IllegalStateException(
          "run "
              + id
              + " waits for approval of step "
              + (r.current() + 1)
              + " ("
              + r.currentStep().step().step()
              + "), not of step "
              + (step + 1)
              + ": look at it again before you approve");
    }
    StepRecord s = r.currentStep();
    boolean killsJobs = KILLS_JOBS.equals(s.evidence().get(APPROVAL));
    if (killsJobs && !jobsMayBeKilled) {
      throw new IllegalStateException(
          "step "
              + (step + 1)
              + " ("
              + s.step().step()
              + ") of run "
              + id
              + " acts on "
              + r.hostname()
              + ", which no scheduler drained: approving it kills any job still running there;"
              + " approve again confirming that jobs may be killed (\"jobsMayBeKilled\": true)");
    }
    Map<String, String> evidence = new TreeMap<>(s.evidence());
    if (killsJobs) {
      evidence.put(JOBS_KILLED_APPROVED_BY, by);
    }
    StepRecord approvedStep =
        new StepRecord(
            s.step(),
            s.status(),
            s.started(),
            s.ended(),
            s.attempts(),
            killsJobs
                ? "approved by " + by + ", knowing that jobs on " + r.hostname() + " are killed"
                : "approved by " + by,
            s.memo(),
            evidence);
    Instant now = clock.instant();
    Run approved =
        r.with(
            RunState.RUNNING,
            r.current(),
            replace(r, approvedStep),
            "",
            now,
            now,
            s.step().step() + "#" + r.current() + ":" + by);
    save(approved, "approve a step of remediation run " + id);
    dispatch(id);
    return approved;
  }

  @Override
  public List<String> steps() {
    return steps.keySet().stream().sorted().toList();
  }

  /** Returns how many nodes runs isolate now (for the page and {@code /metrics}). */
  int isolatedNow() {
    return isolating(null, view().machines()).size();
  }

  /** Returns the number of nodes the isolation limit allows now. */
  int isolationLimit() {
    return Math.max(1, view().fleetSize() * guardrails.maxIsolatedPercent() / 100);
  }

  // ---- what a step sees ----

  private final class Context implements StepContext {
    private final Run run;
    private final StepRecord step;
    private final Instant now;
    private final Map<String, String> memo;

    Context(Run run, StepRecord step, Instant now) {
      this.run = run;
      this.step = step;
      this.now = now;
      this.memo = new HashMap<>(step.memo());
    }

    @Override
    public String runId() {
      return run.id();
    }

    @Override
    public NodeId node() {
      return run.node();
    }

    @Override
    public String hostname() {
      return run.hostname();
    }

    @Override
    public Optional<Machine> machine() {
      MachineService m = machines;
      return run.machine() == null || m == null ? Optional.empty() : m.machine(run.machine());
    }

    @Override
    public Finding finding() {
      Finding f = findingsCache.get(run.id());
      if (f == null) {
        FindingRepository repo = findings;
        f = repo == null ? null : repo.get(run.findingId()).orElse(null);
      }
      if (f == null) {
        throw new IllegalStateException("finding " + run.findingId() + " is no longer stored");
      }
      return f;
    }

    @Override
    public Map<String, String> parameters() {
      return step.step().parameters();
    }

    @Override
    public boolean optional() {
      return step.step().optional();
    }

    @Override
    public Map<String, String> memo() {
      return Map.copyOf(memo);
    }

    @Override
    public void remember(String key, String value) {
      synchronized (RemediationEngine.this) {
        Run current = runs.get(run.id());
        if (current == null
            || current.state() != RunState.RUNNING
            || current.current() != run.current()) {
          throw new IllegalStateException("run " + run.id() + " moved on; nothing is recorded");
        }
        StepRecord s = current.currentStep();
        Map<String, String> m = new HashMap<>(s.memo());
        m.put(key, value);
        StepRecord updated =
            new StepRecord(
                s.step(),
                s.status(),
                s.started(),
                s.ended(),
                s.attempts(),
                s.detail(),
                m,
                s.evidence());
        save(
            current.with(
                current.state(),
                current.current(),
                replace(current, updated),
                current.held(),
                clock.instant(),
                current.nextCheck(),
                current.approvedBy()),
            "record what step " + s.step().step() + " set in motion");
        memo.put(key, value);
      }
    }

    @Override
    public boolean drained() {
      Run current = runs.getOrDefault(run.id(), run);
      for (int i = 0; i < current.current() && i < current.steps().size(); i++) {
        StepRecord s = current.steps().get(i);
        if (s.status() == StepStatus.DONE && s.evidence().containsKey("drained")) {
          return true;
        }
      }
      // No scheduler runs the node: only a person who knew that jobs are killed lets a step on.
      return undrained(current).isPresent() && jobsKillApproved(current);
    }

    @Override
    public void ensureActive() {
      Run current = runs.get(run.id());
      if (current == null
          || current.state() != RunState.RUNNING
          || current.current() != run.current()) {
        throw new IllegalStateException(
            "run "
                + run.id()
                + " is no longer at this step ("
                + (current == null ? "gone" : current.state().apiName())
                + "): nothing is done");
      }
      if (killed) {
        throw new IllegalStateException("the remediation kill switch is on: nothing is done");
      }
      if (stopping) {
        throw new IllegalStateException("the appliance is stopping: nothing is done");
      }
    }

    @Override
    public Instant stepStarted() {
      return step.started() == null ? now : step.started();
    }

    @Override
    public int attempt() {
      return Math.max(1, step.attempts());
    }

    @Override
    public String reason() {
      // Connectors put "bulwark: " in front themselves; the first word is the finding's kind, the
      // run's id comes next so that a scheduler that cuts the text short keeps it.
      String r = run.findingKind() + " (" + run.id() + "): " + run.findingSummary();
      return r.length() <= 240 ? r : r.substring(0, 237) + "...";
    }

    @Override
    public Instant now() {
      return clock.instant();
    }
  }
}
