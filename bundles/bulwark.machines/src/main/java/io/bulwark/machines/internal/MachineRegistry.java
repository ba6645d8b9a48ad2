package io.bulwark.machines.internal;

import io.bulwark.api.bmc.BmcDriver;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.BootDevice;
import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineEvent;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineRefusedException;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.NewMachine;
import io.bulwark.api.machine.PowerState;
import io.bulwark.api.security.SecretStore;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.StoreReader;
import io.bulwark.api.store.WritePriority;
import io.bulwark.api.telemetry.Reading;
import io.bulwark.api.telemetry.TelemetryBatch;
import io.bulwark.api.telemetry.TelemetryIngest;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The machines and their life cycle, in the store: every operation is checked against {@link
 * Transitions}, then the machine's new state and its history entry are stored in one write, and
 * only then is anything acted on. A machine in a transient state past its deadline moves to the
 * matching Failed state (checked every {@link #SWEEP_SECONDS} s); after a restart, a machine found
 * in a transient state is failed at once with the reason, so nothing waits for work that is no
 * longer running (but for Remediating: the remediation run that holds the machine resumes).
 * Operations are serialized: two operators clicking at once get one success and one 409.
 */
@Component(
    service = {MachineService.class, MachineRegistry.class},
    configurationPid = "io.bulwark.machines",
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = MachinesConfig.class)
public final class MachineRegistry implements MachineService {
  static final int SWEEP_SECONDS = 10;
  static final int BMC_THREADS = 64;
  static final int EVENT_LOG_ENTRIES = 50;
  static final String BULWARK = "bulwark";
  private static final System.Logger LOG = System.getLogger(MachineRegistry.class.getName());

  /** The states whose machine still needs the state it will return to. */
  private static final Set<MachineState> KEEP_RETURN =
      EnumSet.of(
          MachineState.COMMISSIONING,
          MachineState.TESTING,
          MachineState.ENTERING_RESCUE_MODE,
          MachineState.RESCUE_MODE,
          MachineState.EXITING_RESCUE_MODE,
          MachineState.FAILED_ENTERING_RESCUE_MODE,
          MachineState.FAILED_EXITING_RESCUE_MODE,
          MachineState.QUARANTINED,
          MachineState.REMEDIATING);

  private final RecordStore store;
  private final SecretStore secrets;
  private final Clock clock;
  private final Map<MachineState, Duration> timeouts;
  private final BmcWork bmc;
  private final Map<MachineId, BmcWork.Poll> polls = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile TelemetryIngest ingest;
  private final List<java.util.function.BiConsumer<MachineId, Machine>> listeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  private volatile FleetRepository fleet;
  private ScheduledExecutorService sweeper;

  @Activate
  public MachineRegistry(
      @Reference RecordStore store, @Reference SecretStore secrets, MachinesConfig config) {
    this(store, secrets, timeouts(config), Clock.systemUTC(), threads(config.bmcThreads()));
    failInterrupted();
    sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bulwark-machines-timeouts");
              t.setDaemon(true);
              return t;
            });
    sweeper.scheduleWithFixedDelay(
        this::sweepQuietly, SWEEP_SECONDS, SWEEP_SECONDS, TimeUnit.SECONDS);
    int every = config.sensorSeconds();
    if (every < 0 || every > 86_400) {
      throw new IllegalArgumentException(
          "sensorSeconds of io.bulwark.machines must be between 0 (off) and 86400, got " + every);
    }
    if (every > 0) {
      sweeper.scheduleWithFixedDelay(
          this::pollQuietly, Math.min(every, 15), every, TimeUnit.SECONDS);
    }
  }

  MachineRegistry(
      RecordStore store, SecretStore secrets, Map<MachineState, Duration> timeouts, Clock clock) {
    this(store, secrets, timeouts, clock, BMC_THREADS);
  }

  MachineRegistry(
      RecordStore store,
      SecretStore secrets,
      Map<MachineState, Duration> timeouts,
      Clock clock,
      int bmcThreads) {
    this.store = store;
    this.secrets = secrets;
    this.timeouts = new EnumMap<>(timeouts);
    this.clock = clock;
    this.bmc = new BmcWork(secrets, bmcThreads);
  }

  private static int threads(int n) {
    if (n < 4 || n > 1024) {
      throw new IllegalArgumentException(
          "bmcThreads of io.bulwark.machines must be between 4 and 1024, got " + n);
    }
    return n;
  }

  @Reference(
      service = BmcDriver.class,
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC)
  void bindDriver(BmcDriver driver) {
    bmc.bind(driver);
  }

  void unbindDriver(BmcDriver driver) {
    bmc.unbind(driver);
  }

  @Reference(
      service = TelemetryIngest.class,
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC)
  void bindIngest(TelemetryIngest i) {
    ingest = i;
  }

  void unbindIngest(TelemetryIngest i) {
    if (ingest == i) {
      ingest = null;
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

  // ---- reading the BMCs ----

  @Override
  public List<io.bulwark.api.machine.MachineReadings> readings() {
    List<io.bulwark.api.machine.MachineReadings> out = new ArrayList<>();
    for (Machine m : machines()) {
      BmcWork.Poll p = polls.get(m.id());
      if (p != null) {
        out.add(
            new io.bulwark.api.machine.MachineReadings(
                m.id(), m.hostname(), m.node(), p.atMillis(), p.error(), p.sensors(), p.events()));
      }
    }
    return out;
  }

  @Override
  public Optional<io.bulwark.api.bmc.BmcInventory> inventory(MachineId id) {
    return Optional.ofNullable(store.read(r -> r.map(MachineFormats.INVENTORY).get(id.value())));
  }

  /** Returns what the last read of the machine's BMC gave, if it was read since start. */
  Optional<BmcWork.Poll> lastPoll(MachineId id) {
    return Optional.ofNullable(polls.get(id));
  }

  /**
   * Reads every BMC that has no operation under way, is pinned (protocols with certificates) and is
   * not resting after failures (in the background, at most two requests at a time per BMC); returns
   * how many reads were started.
   */
  int pollAll() {
    int started = 0;
    for (Machine m : machines()) {
      if (m.bmc() == null
          || (m.bmc().protocol() == BmcProtocol.REDFISH && m.bmc().pinnedSha256().isEmpty())
          || !m.pending().isEmpty()
          || bmc.driver(m.bmc().protocol()).isEmpty()
          || bmc.resting(m)) {
        continue;
      }
      bmc.poll(m, EVENT_LOG_ENTRIES, poll -> polled(m.id(), poll));
      started++;
    }
    return started;
  }

  private void pollQuietly() {
    try {
      pollAll();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Could not start reading the BMCs: {0}", e.toString());
    }
  }

  /**
   * Keeps a BMC read: in memory for the machine's page, its sensors into telemetry as series of the
   * machine's GPU node, its power and error on the machine (stored only when they change, with a
   * history entry when the BMC starts or stops failing), and the link to the GPU node telemetry
   * knows by the machine's host name.
   */
  private synchronized void polled(MachineId id, BmcWork.Poll poll) {
    polls.put(id, poll);
    Optional<Machine> now = machine(id);
    if (now.isEmpty()) {
      return;
    }
    if (poll.inventory() != null) {
      io.bulwark.api.bmc.BmcInventory found = poll.inventory();
      store.write(
          "record the hardware inventory of machine " + id,
          WritePriority.ROUTINE,
          w -> {
            w.map(MachineFormats.INVENTORY).put(id.value(), found);
            return null;
          });
    }
    if (!now.get().pending().isEmpty()) {
      return;
    }
    Machine m = now.get();
    Machine next = m;
    String entry = null;
    String why = null;
    FleetRepository f = fleet;
    if (m.node() == null && f != null && NodeId.isValid(m.hostname())) {
      NodeId candidate = NodeId.of(m.hostname());
      if (f.node(candidate).isPresent()) {
        next = next.withNode(candidate);
        entry = "link";
        why = "linked to the GPU node " + candidate + " of telemetry by its host name";
      }
    }
    if (next.node() == null && f != null) {
      io.bulwark.api.bmc.BmcInventory hardware =
          poll.inventory() != null ? poll.inventory() : inventory(id).orElse(null);
      Optional<NodeId> byGpu = nodeWithGpusOf(f, hardware);
      if (byGpu.isPresent()) {
        next = next.withNode(byGpu.get());
        entry = "link";
        why =
            "linked to the GPU node "
                + byGpu.get()
                + " of telemetry by the GPU UUIDs its BMC reports";
      }
    }
    if (!poll.error().equals(m.bmcError()) || poll.power() != m.power()) {
      next = next.withBmcStatus(poll.power(), poll.error(), m.presentedSha256());
      if (poll.error().isEmpty() != m.bmcError().isEmpty()) {
        entry = poll.error().isEmpty() ? "bmc answers" : "bmc failing";
        why = poll.error().isEmpty() ? "the BMC answers again" : poll.error();
      }
    }
    if (next != m) {
      if (entry != null) {
        save(m, next, entry, BULWARK, why);
      } else {
        Machine stored = next;
        store.write(
            "record the BMC of machine " + id,
            WritePriority.ROUTINE,
            w -> {
              w.map(MachineFormats.MACHINES).put(stored.id().value(), stored);
              return null;
            });
        changed(stored.id(), stored);
      }
    }
    TelemetryIngest sink = ingest;
    if (sink != null && next.node() != null && !poll.sensors().isEmpty()) {
      List<Reading> readings = new ArrayList<>();
      for (BmcSensor sensor : poll.sensors()) {
        if (Double.isFinite(sensor.value())) {
          readings.add(Reading.ofNode(sensorMetric(sensor), poll.atMillis(), sensor.value()));
        }
      }
      if (!readings.isEmpty()) {
        sink.push(new TelemetryBatch("bmc", next.node(), poll.atMillis(), null, readings));
      }
    }
  }

  /**
   * Returns the node of telemetry one of whose GPUs has a UUID the BMC reports for the machine's
   * GPUs (nvidia-smi's "GPU-…" prefix and case ignored), if any.
   */
  static Optional<NodeId> nodeWithGpusOf(
      FleetRepository fleet, io.bulwark.api.bmc.BmcInventory hardware) {
    if (hardware == null) {
      return Optional.empty();
    }
    java.util.Set<String> uuids = new java.util.HashSet<>();
    for (var c : hardware.of(io.bulwark.api.bmc.BmcInventory.Kind.GPU)) {
      String u = gpuUuid(c.details().getOrDefault("uuid", ""));
      if (!u.isEmpty()) {
        uuids.add(u);
      }
    }
    if (uuids.isEmpty()) {
      return Optional.empty();
    }
    for (var node : fleet.nodes()) {
      for (var gpu : node.gpus()) {
        if (uuids.contains(gpuUuid(gpu.uuid()))) {
          return Optional.of(node.id());
        }
      }
    }
    return Optional.empty();
  }

  private static String gpuUuid(String u) {
    String v = u.strip().toLowerCase(java.util.Locale.ROOT);
    return v.startsWith("gpu-") ? v.substring(4) : v;
  }

  /**
   * The telemetry metric of a BMC sensor: {@code BMC_<KIND>_<UNIT>:<name>}, e.g. {@code
   * BMC_TEMPERATURE_CEL:cpu1_temp}, the name lower-cased with everything but letters and digits as
   * '_'.
   */
  static String sensorMetric(BmcSensor sensor) {
    String unit = sensor.unit().replaceAll("[^A-Za-z0-9]", "").toUpperCase(java.util.Locale.ROOT);
    String name =
        sensor
            .name()
            .toLowerCase(java.util.Locale.ROOT)
            .replaceAll("[^a-z0-9]+", "_")
            .replaceAll("^_|_$", "");
    String metric =
        "BMC_"
            + sensor.kind().name()
            + (unit.isEmpty() ? "" : "_" + unit)
            + ":"
            + (name.isEmpty() ? "sensor" : name);
    return metric.length() > Reading.MAX_METRIC_LENGTH
        ? metric.substring(0, Reading.MAX_METRIC_LENGTH)
        : metric;
  }

  static Map<MachineState, Duration> timeouts(MachinesConfig c) {
    Map<MachineState, Duration> t = new EnumMap<>(MachineState.class);
    t.put(MachineState.COMMISSIONING, minutes(c.commissioningMinutes(), "commissioningMinutes"));
    t.put(MachineState.DEPLOYING, minutes(c.deployingMinutes(), "deployingMinutes"));
    t.put(MachineState.RELEASING, minutes(c.releasingMinutes(), "releasingMinutes"));
    t.put(MachineState.DISK_ERASING, minutes(c.diskErasingMinutes(), "diskErasingMinutes"));
    t.put(MachineState.ENTERING_RESCUE_MODE, minutes(c.rescueMinutes(), "rescueMinutes"));
    t.put(MachineState.EXITING_RESCUE_MODE, minutes(c.rescueMinutes(), "rescueMinutes"));
    t.put(MachineState.TESTING, minutes(c.testingMinutes(), "testingMinutes"));
    t.put(MachineState.REMEDIATING, minutes(c.remediatingMinutes(), "remediatingMinutes"));
    return t;
  }

  private static Duration minutes(int value, String name) {
    if (value < 1 || value > 7 * 24 * 60) {
      throw new IllegalArgumentException(
          name + " of io.bulwark.machines must be between 1 and 10080 minutes, got " + value);
    }
    return Duration.ofMinutes(value);
  }

  @Deactivate
  void deactivate() {
    if (sweeper != null) {
      sweeper.shutdownNow();
    }
    bmc.close();
  }

  // ---- reading ----

  @Override
  public List<Machine> machines() {
    List<Machine> all =
        store.read(
            r ->
                r.map(MachineFormats.MACHINES).entries().stream()
                    .map(Map.Entry::getValue)
                    .toList());
    return all.stream().sorted(Comparator.comparing(Machine::id)).toList();
  }

  @Override
  public Optional<Machine> machine(MachineId id) {
    return Optional.ofNullable(store.read(r -> r.map(MachineFormats.MACHINES).get(id.value())));
  }

  @Override
  public List<MachineEvent> history(MachineId id, int limit) {
    List<MachineEvent> events = store.read(r -> r.map(MachineFormats.HISTORY).get(id.value()));
    if (events == null) {
      return List.of();
    }
    return events.subList(Math.max(0, events.size() - Math.max(0, limit)), events.size());
  }

  @Override
  public Set<MachineOperation> allowed(MachineId id) {
    return machine(id).map(this::allowedNow).orElse(Set.of());
  }

  private Set<MachineOperation> allowedNow(Machine m) {
    Set<MachineOperation> ops = EnumSet.noneOf(MachineOperation.class);
    for (MachineOperation op : MachineOperation.values()) {
      if (refusal(m, op).isEmpty()) {
        ops.add(op);
      }
    }
    return ops;
  }

  @Override
  public Optional<String> refusal(MachineId id, MachineOperation op) {
    return refusal(existing(id), op);
  }

  /** Why {@code op} is refused on {@code m} now, or empty. */
  Optional<String> refusal(Machine m, MachineOperation op) {
    Optional<String> byState = Transitions.refusal(m, op);
    if (byState.isPresent() || !op.isPower()) {
      return byState;
    }
    if (bmc.driver(m.bmc().protocol()).isEmpty()) {
      return Optional.of(
          "no BMC driver for "
              + m.bmc().protocol().apiName()
              + " is installed, so machine "
              + m.id()
              + " cannot be powered or probed through "
              + m.bmc());
    }
    if (!m.pending().isEmpty()) {
      return Optional.of(
          "machine "
              + m.id()
              + " has "
              + m.pending()
              + " under way at its BMC: wait for its result (in the machine's history)");
    }
    return Optional.empty();
  }

  @Override
  public synchronized Machine setNextBoot(
      MachineId id, BootDevice device, boolean once, String reason, String by) {
    return atBmc(existing(id), MachineOperation.SET_BOOT, device, once, reason, by);
  }

  /** Records {@code op} as pending (stored with its history entry), then runs it at the BMC. */
  private Machine atBmc(
      Machine m, MachineOperation op, BootDevice device, boolean once, String reason, String by) {
    Optional<String> refused = refusal(m, op);
    if (refused.isPresent()) {
      throw new MachineRefusedException(m.id(), m.state(), op, refused.get());
    }
    String why = reason == null || reason.isBlank() ? Transitions.words(op) + " by " + by : reason;
    Machine pending = save(m, m.withPending(op.apiName()), op.apiName(), by, why);
    bmc.submit(pending, op, device, once, outcome -> finished(m.id(), op, outcome));
    return pending;
  }

  /** Stores what a BMC operation ended with, and its history entry. */
  private synchronized void finished(MachineId id, MachineOperation op, BmcWork.Outcome outcome) {
    Optional<Machine> now = machine(id);
    if (now.isEmpty() || !now.get().pending().equals(op.apiName())) {
      return; // deleted meanwhile, or given up at a restart
    }
    Machine m = now.get();
    Machine after =
        m.withBmcStatus(outcome.power(), outcome.error(), outcome.presented()).withPending("");
    String result =
        outcome.error().isEmpty() || !outcome.done().isEmpty()
            ? op.apiName() + " done"
            : op.apiName() + " failed";
    String reason = outcome.error().isEmpty() ? outcome.done() : outcome.error();
    save(m, after, result, BULWARK, reason);
    if (outcome.inventory() != null) {
      io.bulwark.api.bmc.BmcInventory found = outcome.inventory();
      store.write(
          "record the hardware inventory of machine " + id,
          WritePriority.ROUTINE,
          w -> {
            w.map(MachineFormats.INVENTORY).put(id.value(), found);
            return null;
          });
    }
    if (!outcome.error().isEmpty()) {
      LOG.log(Level.WARNING, "Machine {0}: {1}", id, outcome.error());
    }
  }

  @Override
  public synchronized Machine pinCertificate(MachineId id, String sha256, String by) {
    Machine m = existing(id);
    if (m.bmc() == null) {
      throw new MachineRefusedException(id, m.state(), null, "machine " + id + " has no BMC");
    }
    if (m.presentedSha256().isEmpty()) {
      throw new MachineRefusedException(
          id,
          m.state(),
          null,
          "no certificate of machine " + id + "'s BMC waits for approval: probe it first");
    }
    if (!m.presentedSha256().equals(sha256)) {
      throw new MachineRefusedException(
          id,
          m.state(),
          null,
          "the BMC of machine "
              + id
              + " presented "
              + m.presentedSha256()
              + ", not "
              + sha256
              + ": compare again with the BMC's own fingerprint");
    }
    Machine pinned = m.withBmc(m.bmc().pinned(sha256)).withBmcStatus(m.power(), "", "");
    Machine saved = save(m, pinned, "pin-certificate", by, "pinned SHA-256 " + sha256);
    // Read it at once, with its hardware inventory, so its power, sensors and hardware show
    // without waiting for the next round or another probe.
    if (bmc.driver(saved.bmc().protocol()).isPresent()) {
      bmc.poll(saved, EVENT_LOG_ENTRIES, true, poll -> polled(saved.id(), poll));
    }
    return saved;
  }

  // ---- changing ----

  @Override
  public synchronized Machine add(NewMachine n, String username, char[] password, String by) {
    if ((username == null) != (password == null)) {
      throw new IllegalArgumentException(
          "give both the BMC user name and password, or neither for a machine without a BMC yet");
    }
    if (n.bmc() == null && username != null) {
      throw new IllegalArgumentException("BMC credentials were given but no BMC address");
    }
    if (n.bmc() != null && username == null) {
      throw new IllegalArgumentException(
          "the BMC at " + n.bmc().address() + " needs a user name and password");
    }
    if (machine(n.id()).isPresent()) {
      throw new IllegalArgumentException("there is already a machine '" + n.id() + "'");
    }
    Instant now = clock.instant();
    BmcEndpoint bmc = n.bmc() == null ? null : n.bmc().withCredentialRef(secretName(n.id()));
    if (bmc != null) {
      byte[] sealed = credential(username, password);
      try {
        secrets.put(bmc.credentialRef(), sealed);
      } finally {
        Arrays.fill(sealed, (byte) 0);
      }
    }
    Machine m =
        new Machine(
            n.id(),
            n.hostname(),
            n.macs(),
            bmc,
            n.rack(),
            n.zone(),
            n.tags(),
            MachineState.NEW,
            "added by " + by,
            now,
            null,
            null,
            "",
            false,
            n.node(),
            PowerState.UNKNOWN,
            "",
            "",
            "",
            now);
    store.write(
        "add machine " + n.id(),
        WritePriority.ROUTINE,
        w -> {
          w.map(MachineFormats.MACHINES).put(m.id().value(), m);
          appendHistory(w, m, "add", MachineState.NEW, by, "added");
          return null;
        });
    changed(m.id(), m);
    return m;
  }

  @Override
  public synchronized Machine setBmc(
      MachineId id, BmcEndpoint bmc, String username, char[] password, String by) {
    Machine m = existing(id);
    if (bmc == null || username == null || username.isBlank() || password == null) {
      throw new IllegalArgumentException(
          "a BMC needs an address, a user name and a password (machine " + id + ")");
    }
    if (!m.pending().isEmpty()) {
      throw new MachineRefusedException(
          id,
          m.state(),
          null,
          "machine "
              + id
              + " has "
              + m.pending()
              + " under way at its BMC: wait for it to end, then set the BMC");
    }
    BmcEndpoint sealedAt = bmc.withCredentialRef(secretName(id));
    byte[] sealed = credential(username, password);
    try {
      secrets.put(sealedAt.credentialRef(), sealed);
    } finally {
      Arrays.fill(sealed, (byte) 0);
    }
    String why =
        "BMC set to "
            + bmc.protocol().name().toLowerCase(java.util.Locale.ROOT)
            + " "
            + bmc.address()
            + ":"
            + bmc.port()
            + " by "
            + by;
    return save(
        m, m.withBmc(sealedAt).withBmcStatus(PowerState.UNKNOWN, "", ""), "set-bmc", by, why);
  }

  @Override
  public synchronized Machine operate(MachineId id, MachineOperation op, String reason, String by) {
    Machine m = existing(id);
    Optional<String> refused = refusal(m, op);
    if (refused.isPresent()) {
      throw new MachineRefusedException(id, m.state(), op, refused.get());
    }
    String why = reason == null || reason.isBlank() ? Transitions.words(op) + " by " + by : reason;
    if (op == MachineOperation.DELETE) {
      delete(m, by, why);
      return m;
    }
    if (op == MachineOperation.SET_BOOT) {
      throw new IllegalArgumentException("set-boot needs a device: use setNextBoot");
    }
    if (op.isPower()) {
      return atBmc(m, op, null, false, reason, by);
    }
    Machine next;
    if (op == MachineOperation.LOCK || op == MachineOperation.UNLOCK) {
      next = m.withLocked(op == MachineOperation.LOCK);
    } else {
      Transitions.Step step = Transitions.step(m.state(), op).orElseThrow();
      next = moved(m, step, why);
      if (op == MachineOperation.ALLOCATE
          || (op == MachineOperation.DEPLOY && m.owner().isEmpty())) {
        next = next.withOwner(by);
      }
    }
    return save(m, next, op.apiName(), by, why);
  }

  @Override
  public synchronized Machine complete(MachineId id, String reason, String by) {
    Machine m = existing(id);
    Transitions.Step step =
        Transitions.completion(m.state())
            .orElseThrow(
                () ->
                    new MachineRefusedException(
                        id,
                        m.state(),
                        null,
                        "machine "
                            + id
                            + " is "
                            + m.state().label()
                            + ": no operation is under way"));
    return save(m, moved(m, step, reason), "complete", by, reason);
  }

  @Override
  public synchronized Machine fail(MachineId id, String reason, String by) {
    Machine m = existing(id);
    if (!m.state().isTransient()) {
      throw new MachineRefusedException(
          id,
          m.state(),
          null,
          "machine " + id + " is " + m.state().label() + ": no operation is under way");
    }
    return save(
        m, moved(m, Transitions.Step.to(m.state().failedState()), reason), "fail", by, reason);
  }

  /**
   * Fails every machine whose deadline has passed; returns how many. Runs on the sweeper thread
   * (and in tests).
   */
  synchronized int sweep() {
    Instant now = clock.instant();
    int failed = 0;
    for (Machine m : machines()) {
      if (m.state().isTransient()
          && m.stateDeadline() != null
          && !now.isBefore(m.stateDeadline())) {
        Duration limit = timeouts.get(m.state());
        String reason =
            m.state().label()
                + " did not end within "
                + limit.toMinutes()
                + " min (since "
                + m.stateSince()
                + "); the timeout is set in io.bulwark.machines";
        save(
            m,
            moved(m, Transitions.Step.to(m.state().failedState()), reason),
            "timeout",
            BULWARK,
            reason);
        LOG.log(
            Level.WARNING,
            "Machine {0}: {1}. It is now {2}; look at its history and its BMC, then retry.",
            m.id(),
            reason,
            m.state().failedState().label());
        failed++;
      }
    }
    return failed;
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Could not check the machines'' timeouts: {0}; retried in {1} s",
          e,
          SWEEP_SECONDS);
    }
  }

  /**
   * Fails the machines found in a transient state at start: the work that was under way did not
   * survive the restart, and nothing installed resumes it. Returns how many.
   */
  synchronized int failInterrupted() {
    int failed = 0;
    for (Machine m : machines()) {
      if (!m.pending().isEmpty()) {
        String reason =
            "the appliance restarted before the BMC confirmed "
                + m.pending()
                + "; whether it was carried out is not known: probe the machine to read its power";
        Machine cleared =
            m.withBmcStatus(PowerState.UNKNOWN, reason, m.presentedSha256()).withPending("");
        save(m, cleared, m.pending() + " interrupted", BULWARK, reason);
        m = cleared;
        LOG.log(Level.WARNING, "Machine {0}: {1}", m.id(), reason);
        failed++;
      }
      // A remediation run holds a Remediating machine and resumes it after a restart.
      if (m.state().isTransient() && m.state() != MachineState.REMEDIATING) {
        String reason =
            "the appliance restarted while the machine was "
                + m.state().label()
                + " (since "
                + m.stateSince()
                + "); that work does not resume by itself, so it is marked failed";
        save(
            m,
            moved(m, Transitions.Step.to(m.state().failedState()), reason),
            "restart",
            BULWARK,
            reason);
        LOG.log(
            Level.WARNING,
            "Machine {0}: {1}. It is now {2}; retry the operation.",
            m.id(),
            reason,
            m.state().failedState().label());
        failed++;
      }
    }
    return failed;
  }

  private Machine existing(MachineId id) {
    return machine(id)
        .orElseThrow(() -> new NoSuchElementException("there is no machine '" + id + "'"));
  }

  /** Returns {@code m} moved by {@code step}, with the state it returns to and its deadline. */
  private Machine moved(Machine m, Transitions.Step step, String reason) {
    MachineState to = step.to();
    MachineState returnTo = m.returnState();
    if (to == null) {
      to = returnTo == null ? MachineState.READY : returnTo;
    }
    if (step.remember()) {
      returnTo = m.state();
    }
    if (!KEEP_RETURN.contains(to)) {
      returnTo = null;
    }
    Instant now = clock.instant();
    Duration timeout = timeouts.get(to);
    Machine next =
        m.withState(
            to,
            reason,
            now,
            to.isTransient() && timeout != null ? now.plus(timeout) : null,
            returnTo);
    return to == MachineState.READY ? next.withOwner("") : next;
  }

  private Machine save(Machine before, Machine after, String operation, String by, String reason) {
    store.write(
        operation + " machine " + before.id(),
        WritePriority.ROUTINE,
        w -> {
          w.map(MachineFormats.MACHINES).put(after.id().value(), after);
          appendHistory(w, before, operation, after.state(), by, reason);
          return null;
        });
    changed(after.id(), after);
    return after;
  }

  /**
   * Calls {@code listener} after every stored change of a machine with the machine as it is now
   * (null once it is deleted); returns a handle that stops the calls. The listener must return at
   * once.
   */
  AutoCloseable listen(java.util.function.BiConsumer<MachineId, Machine> listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  private void changed(MachineId id, Machine now) {
    for (var l : listeners) {
      try {
        l.accept(id, now);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "A machine listener failed", e);
      }
    }
  }

  private void delete(Machine m, String by, String why) {
    store.write(
        "delete machine " + m.id(),
        WritePriority.ROUTINE,
        w -> {
          w.map(MachineFormats.MACHINES).remove(m.id().value());
          w.map(MachineFormats.HISTORY).remove(m.id().value());
          w.map(MachineFormats.INVENTORY).remove(m.id().value());
          return null;
        });
    if (m.bmc() != null) {
      secrets.remove(m.bmc().credentialRef());
      bmc.forget(m.bmc().credentialRef());
    }
    polls.remove(m.id());
    changed(m.id(), null);
    LOG.log(Level.INFO, "Machine {0} deleted by {1}: {2}", m.id(), by, why);
  }

  private void appendHistory(
      StoreReader w, Machine before, String operation, MachineState to, String by, String reason) {
    var map = w.map(MachineFormats.HISTORY);
    List<MachineEvent> events = map.get(before.id().value());
    List<MachineEvent> next = new ArrayList<>(events == null ? List.of() : events);
    long seq = next.isEmpty() ? 1 : next.get(next.size() - 1).seq() + 1;
    next.add(
        new MachineEvent(
            seq, before.id(), clock.instant(), operation, before.state(), to, by, reason));
    if (next.size() > MachineFormats.MAX_HISTORY) {
      next = new ArrayList<>(next.subList(next.size() - MachineFormats.MAX_HISTORY, next.size()));
    }
    map.put(before.id().value(), next);
  }

  static String secretName(MachineId id) {
    return "machine.bmc." + id.value();
  }

  /** The credential as sealed: the user name and password, each as modified UTF-8. */
  private static byte[] credential(String username, char[] password) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    java.nio.ByteBuffer encoded = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
    byte[] pw = new byte[encoded.remaining()];
    encoded.get(pw);
    if (encoded.hasArray()) {
      Arrays.fill(encoded.array(), (byte) 0);
    }
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeUTF(username);
      out.writeInt(pw.length);
      out.write(pw);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      Arrays.fill(pw, (byte) 0);
    }
    return bytes.toByteArray();
  }
}
