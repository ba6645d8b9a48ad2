package io.bulwark.health.internal;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.CapacityLedger;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingListener;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingRepository;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.health.NodeCoverage;
import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.api.telemetry.TelemetryQuery;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The health engine: on its own thread, every evaluation interval (telemetry's sample interval
 * while telemetry sheds load and that is longer), it judges the inventory with what telemetry
 * reports that the inventory lacks yet ({@link EvaluatedFleet}), asks every registered {@link
 * Detector} what holds now, turns the conditions into findings with hysteresis (stored, and told to
 * every {@link FindingListener}), and recomputes the capacity account. Provides the {@link
 * HealthService} to the web API. Open findings are restored from the store on activation, so a
 * restart does not duplicate them.
 */
@Component(
    service = {HealthService.class, SubsystemCheck.class},
    configurationPid = "io.bulwark.health",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = HealthEngineConfig.class)
public final class HealthEngine implements HealthService, SubsystemCheck {
  private static final Logger LOG = System.getLogger(HealthEngine.class.getName());
  private static final int RESTORE_LIMIT = 1_000_000;

  private final TelemetryQuery telemetry;
  private final FindingRepository findingRepository;
  private final HealthEngineOptions options;
  private final Clock clock;
  private final FindingTracker tracker;
  private final DetectorRoster roster = new DetectorRoster();
  private final FindingPublisher publisher;
  private final CapacityBook book;
  private volatile List<Node> inventory = List.of();
  private volatile Map<String, Finding> openById = Map.of();
  private volatile CapacityReport capacity;
  private volatile ScheduledExecutorService scheduler;
  private final EngineHealth engineHealth;
  private volatile int unsaved;

  /**
   * @throws IllegalArgumentException if a configuration value is out of range (the message names
   *     it)
   * @throws IllegalStateException if the open findings cannot be read from the store
   */
  /**
   * The inventory, bound dynamically: while its bundle is away (updated, restarting) the engine
   * goes on with the inventory last read, and telemetry's nodes.
   */
  private volatile FleetRepository fleet;

  @Activate
  public HealthEngine(
      @Reference TelemetryQuery telemetry,
      @Reference FindingRepository findingRepository,
      @Reference CapacityLedger ledger,
      HealthEngineConfig config) {
    this(
        telemetry,
        null,
        findingRepository,
        ledger,
        HealthEngineOptions.from(config),
        Clock.systemUTC());
  }

  HealthEngine(
      TelemetryQuery telemetry,
      FleetRepository fleet,
      FindingRepository findingRepository,
      HealthEngineOptions options,
      Clock clock) {
    this(telemetry, fleet, findingRepository, new MemoryLedger(), options, clock);
  }

  HealthEngine(
      TelemetryQuery telemetry,
      FleetRepository fleet,
      FindingRepository findingRepository,
      CapacityLedger ledger,
      HealthEngineOptions options,
      Clock clock) {
    this.telemetry = telemetry;
    this.fleet = fleet;
    this.findingRepository = findingRepository;
    this.options = options;
    this.clock = clock;
    this.tracker =
        new FindingTracker(
            options.resolveAfterMillis(),
            HealthEngineOptions.REFRESH_PERSIST_MILLIS,
            () -> UUID.randomUUID().toString());
    this.publisher = new FindingPublisher(findingRepository);
    this.book = new CapacityBook(ledger, options.evaluationIntervalMillis());
    long now = clock.millis();
    this.capacity = CapacityReport.of(Instant.ofEpochMilli(now), List.of());
    this.engineHealth = new EngineHealth(options.evaluationIntervalMillis(), now);
    restoreOpenFindings(now);
  }

  /** Starts the evaluations on the engine's own thread. */
  @Activate
  void start() {
    ScheduledExecutorService s =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bulwark-health-engine");
              t.setDaemon(true);
              return t;
            });
    scheduler = s;
    long interval = options.evaluationIntervalMillis();
    s.schedule(this::evaluateAndReschedule, interval, TimeUnit.MILLISECONDS);
    LOG.log(
        Level.INFO,
        "Health engine started: evaluating every {0} ms (or at telemetry''s pace while it sheds"
            + " load); a finding resolves after its condition has been absent for {1} ms",
        interval,
        options.resolveAfterMillis());
  }

  /**
   * Returns how long to wait before the next evaluation starts, when the last one took {@code
   * tookMillis}: evaluations start every interval (the configured one, or telemetry's sample
   * interval while it is longer: evaluating the same samples twice finds nothing new), whatever
   * they take, so that the cadence holds at the production interval; one that overran its interval
   * is followed by a pause of a quarter interval, so that the engine never takes a whole core from
   * the scrapes it evaluates.
   */
  static long nextDelayMillis(long configuredMillis, long sampleIntervalMillis, long tookMillis) {
    long interval = Math.max(configuredMillis, sampleIntervalMillis);
    return Math.max(interval - tookMillis, interval / 4);
  }

  private void evaluateAndReschedule() {
    long started = System.nanoTime();
    try {
      evaluateSafely();
    } finally {
      scheduleNext(started);
    }
  }

  private void scheduleNext(long started) {
    ScheduledExecutorService s = scheduler;
    if (s == null || s.isShutdown()) {
      return;
    }
    long sampleInterval;
    try {
      sampleInterval = telemetry.sampleIntervalMillis();
    } catch (RuntimeException e) {
      sampleInterval = 0;
    }
    long took = (System.nanoTime() - started) / 1_000_000;
    long delay = nextDelayMillis(options.evaluationIntervalMillis(), sampleInterval, took);
    engineHealth.paced(Math.max(options.evaluationIntervalMillis(), sampleInterval));
    try {
      s.schedule(this::evaluateAndReschedule, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException stopping) {
      // The engine is stopping.
    }
  }

  /** Stops the evaluations; an evaluation in progress is interrupted. */
  @Deactivate
  void stop() {
    ScheduledExecutorService s = scheduler;
    if (s == null) {
      return;
    }
    s.shutdownNow();
    try {
      if (!s.awaitTermination(5, TimeUnit.SECONDS)) {
        LOG.log(
            Level.WARNING, "Health engine: an evaluation did not finish within 5 s of stopping");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      book.flush();
    }
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindFleet")
  void bindFleet(FleetRepository inventory) {
    fleet = inventory;
  }

  void unbindFleet(FleetRepository inventory) {
    if (fleet == inventory) {
      fleet = null;
      LOG.log(
          Level.INFO,
          "Health engine: the inventory left; evaluating with the last one read ({0} nodes) and"
              + " the nodes telemetry reports",
          this.inventory.size());
    }
  }

  @Reference(
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "removeDetector")
  void addDetector(Detector detector) {
    LOG.log(Level.INFO, "Detector ''{0}'' takes part in health evaluations", roster.add(detector));
  }

  void removeDetector(Detector detector) {
    String name = roster.remove(detector);
    if (name != null) {
      LOG.log(
          Level.INFO,
          "Detector ''{0}'' left; its open findings resolve once absent for {1} ms",
          name,
          options.resolveAfterMillis());
    }
  }

  @Reference(
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "removeListener")
  void addListener(FindingListener listener) {
    publisher.addListener(listener);
  }

  void removeListener(FindingListener listener) {
    publisher.removeListener(listener);
  }

  /** Runs one evaluation now. Called on the engine thread; tests call it directly. */
  synchronized void evaluate() {
    long started = System.nanoTime();
    long now = clock.millis();
    List<Node> nodes = EvaluatedFleet.of(readInventory(), telemetry, Instant.ofEpochMilli(now));
    DetectorRoster.Evaluation evaluation =
        roster.evaluateAll(new EvaluationContext(telemetry, nodes, now));
    GpuUuids uuids = new GpuUuids(nodes);
    publisher.publish(
        tracker.apply(evaluation.reported(), evaluation.failed(), now, uuids::of),
        tracker::freshest);
    List<Finding> open = tracker.openFindings();
    openById =
        open.stream().collect(Collectors.toUnmodifiableMap(Finding::id, Function.identity()));
    capacity = CapacityAccount.compute(nodes, open, telemetry, now, options.telemetryStaleMillis());
    book.book(capacity, now);
    unsaved = publisher.unsavedCount();
    engineHealth.completed(clock.millis(), System.nanoTime() - started);
  }

  @Override
  public SubsystemStatus status() {
    return engineHealth.status(
        clock.millis(),
        roster.names().size(),
        openById.size(),
        unsaved,
        roster.judgeNanos(),
        roster.judgements());
  }

  @Override
  public List<CapacityInterval> capacityHistory(Instant from) {
    return book.history(from);
  }

  @Override
  public List<Finding> findings(FindingQuery query) {
    Map<String, Finding> byId = new LinkedHashMap<>();
    for (Finding f : findingRepository.find(query)) {
      byId.put(f.id(), f);
    }
    for (Finding f : openById.values()) {
      if (query.matches(f)) {
        byId.put(f.id(), f);
      }
    }
    return byId.values().stream()
        .sorted(Comparator.comparing(Finding::lastSeen).reversed())
        .limit(query.limit())
        .toList();
  }

  @Override
  public CapacityReport capacity() {
    return capacity;
  }

  @Override
  public List<String> detectors() {
    return roster.names();
  }

  @Override
  public List<NodeCoverage> coverage() {
    return DetectorCoverage.of(
        roster.inputs(), telemetry, clock.millis() - options.telemetryStaleMillis());
  }

  private void evaluateSafely() {
    try {
      evaluate();
    } catch (RuntimeException e) {
      engineHealth.failed(e);
      LOG.log(
          Level.ERROR,
          "Health evaluation failed; findings and capacity stay as they were and the next"
              + " evaluation runs as scheduled. Check telemetry and the store.",
          e);
    }
  }

  private List<Node> readInventory() {
    FleetRepository current = fleet;
    if (current == null) {
      return inventory;
    }
    try {
      inventory = current.nodes();
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Could not read the inventory; evaluating with the last one read ("
              + inventory.size()
              + " nodes). Check the store.",
          e);
    }
    return inventory;
  }

  private void restoreOpenFindings(long now) {
    List<Finding> stored;
    try {
      stored = findingRepository.find(FindingQuery.open().withLimit(RESTORE_LIMIT));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "Health engine cannot start: the open findings could not be read from"
              + " the store, and starting without them would open duplicates. Check the store.",
          e);
    }
    long keepUntil = now + options.startupGraceMillis();
    List<FindingChange> superseded =
        stored.stream()
            .flatMap(f -> tracker.restore(f, now, keepUntil).stream())
            .map(f -> new FindingChange(FindingChange.Type.RESOLVED, f))
            .toList();
    publisher.publish(superseded, tracker::freshest);
    List<Finding> open = tracker.openFindings();
    openById =
        open.stream().collect(Collectors.toUnmodifiableMap(Finding::id, Function.identity()));
    if (!open.isEmpty()) {
      LOG.log(Level.INFO, "Health engine restored {0} open finding(s) from the store", open.size());
    }
  }
}
