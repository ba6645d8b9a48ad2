package io.bulwark.notify.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingListener;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingRepository;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Maintenance;
import io.bulwark.api.health.Severity;
import io.bulwark.api.security.SecretStore;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.StoreUnavailableException;
import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.api.telemetry.TargetStatus;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.bulwark.notify.api.ChannelConfig;
import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.ChannelType;
import io.bulwark.notify.api.Notices;
import io.bulwark.notify.api.Notification;
import io.bulwark.notify.api.Notification.Event;
import io.bulwark.notify.internal.Formats.Told;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
 * Carries findings out of the appliance. As a {@link FindingListener} it only queues the finding
 * (the health engine never waits); its own thread decides, per configured channel, whether the
 * change is news to that channel (opened, severity changed, resolved: not the periodic refreshes),
 * routes it, and writes the notifications with what each channel was told in one store write. Each
 * channel delivers from the outbox on its own worker. Every {@code reconcileSeconds} the open
 * findings are compared with what each channel was told, so a change missed while the store refused
 * writes or this bundle was away is sent after all; channels whose receiver expires alerts get the
 * open ones again. Findings under a maintenance window, or snoozed ({@link Maintenance}), are not
 * notified while the hold lasts. Reports the {@code notify} subsystem: failing channels show on the
 * System page.
 */
@Component(
    service = {FindingListener.class, SubsystemCheck.class, Notices.class, Notifier.class},
    configurationPid = Notifier.PID,
    configurationPolicy = ConfigurationPolicy.OPTIONAL,
    immediate = true)
@Designate(ocd = NotifyConfig.class)
public final class Notifier implements FindingListener, SubsystemCheck, Notices {
  static final String PID = "io.bulwark.notify";
  private static final Logger LOG = System.getLogger(Notifier.class.getName());
  private static final int QUEUE = 20_000;

  private final RecordStore store;
  private final SecretStore secrets;
  private final FindingRepository findings;
  private final Clock clock;
  private final Outbox outbox;
  private final String appliance;
  private final String externalUrl;
  private final long reconcileMillis;
  private final BlockingQueue<Finding> queue = new ArrayBlockingQueue<>(QUEUE);
  private final Map<String, ChannelType> types = new ConcurrentHashMap<>();
  private final Map<String, ChannelDefinition> channels = new ConcurrentHashMap<>();
  private final Map<String, ChannelWorker> workers = new ConcurrentHashMap<>();
  private final Map<String, ChannelStatus> statuses = new ConcurrentHashMap<>();
  private final Map<String, String> openErrors = new ConcurrentHashMap<>();
  private final Map<String, Long> lastSentMillis = new ConcurrentHashMap<>();
  private final Instant started;
  private volatile TelemetryTargets targets;
  private volatile Maintenance maintenance;
  private volatile boolean reconcileSoon = true;
  private volatile long queueDropped;
  private volatile SubsystemState lastState = SubsystemState.UP;
  private volatile Instant stateSince;
  private final Thread router;
  private volatile boolean stopped;

  @Activate
  public Notifier(
      @Reference RecordStore store,
      @Reference SecretStore secrets,
      @Reference FindingRepository findings,
      NotifyConfig config) {
    this(store, secrets, findings, config, Clock.systemUTC());
  }

  Notifier(
      RecordStore store,
      SecretStore secrets,
      FindingRepository findings,
      NotifyConfig config,
      Clock clock) {
    this.store = store;
    this.secrets = secrets;
    this.findings = findings;
    this.clock = clock;
    this.started = clock.instant();
    this.stateSince = started;
    this.appliance = config.applianceName().isBlank() ? hostName() : config.applianceName().trim();
    this.externalUrl = config.externalUrl().trim().replaceAll("/+$", "");
    this.reconcileMillis = config.reconcileSeconds() * 1000L;
    this.outbox = new Outbox(store, config.maxWaitingPerChannel());
    store.read(
        r -> {
          r.map(Formats.CHANNELS).entries().forEach(e -> channels.put(e.getKey(), e.getValue()));
          return null;
        });
    this.router = new Thread(this::route, "bulwark-notify-router");
    router.setDaemon(true);
    router.start();
  }

  @Deactivate
  void deactivate() {
    stopped = true;
    // Not interrupted: the router may be writing to the store; it sees the flag within a second.
    try {
      router.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    workers.values().forEach(w -> w.stop(2_000));
    workers.clear();
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindMaintenance")
  void bindMaintenance(Maintenance m) {
    maintenance = m;
    reconcileSoon = true;
  }

  void unbindMaintenance(Maintenance m) {
    if (maintenance == m) {
      maintenance = null;
    }
    reconcileSoon = true;
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindTargets")
  void bindTargets(TelemetryTargets t) {
    targets = t;
  }

  void unbindTargets(TelemetryTargets t) {
    if (targets == t) {
      targets = null;
    }
  }

  @Reference(
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC,
      unbind = "unbindType")
  void bindType(ChannelType type) {
    types.put(type.type(), type);
    if (router != null) {
      restartChannels(type.type());
    }
  }

  void unbindType(ChannelType type) {
    if (types.remove(type.type(), type)) {
      restartChannels(type.type());
    }
  }

  // ---- the finding listener: never blocks ----

  @Override
  public void findingChanged(Finding finding) {
    if (!queue.offer(finding)) {
      queueDropped++;
      reconcileSoon = true;
    }
  }

  // ---- channels ----

  /** Returns the outbox, for tests. */
  Outbox outbox() {
    return outbox;
  }

  /** Returns the channel types installed now, by name. */
  Map<String, ChannelType> types() {
    return new TreeMap<>(types);
  }

  /** Returns the channels configured, by name. */
  Map<String, ChannelDefinition> channels() {
    return new TreeMap<>(channels);
  }

  /**
   * Checks and stores a channel; {@code credential} replaces the stored one when not null (empty:
   * removes it). Starts delivering with the new settings.
   *
   * @throws IllegalArgumentException if the settings are unusable (message names the setting)
   * @throws IllegalStateException if the channel's type is not installed
   */
  synchronized void save(ChannelDefinition definition, byte[] credential) {
    check(definition, credential);
    store(definition, credential);
  }

  /**
   * Checks a channel as {@link #save} would, changing nothing, so the caller can audit the change
   * before it is made.
   *
   * @throws IllegalArgumentException if the settings are unusable (message names the setting)
   * @throws IllegalStateException if the channel's type is not installed
   */
  synchronized void check(ChannelDefinition definition, byte[] credential) {
    ChannelType type = types.get(definition.type());
    if (type == null) {
      throw new IllegalStateException(
          "no channel type '"
              + definition.type()
              + "' is installed; installed: "
              + String.join(", ", types().keySet()));
    }
    byte[] effective =
        credential != null
            ? (credential.length == 0 ? null : credential)
            : secrets.get(definition.secretName()).orElse(null);
    try {
      type.open(config(definition, effective)).close();
    } finally {
      if (effective != null && effective != credential) {
        Arrays.fill(effective, (byte) 0);
      }
    }
  }

  /** Stores a channel that {@link #check} accepted and starts delivering with it. */
  synchronized void store(ChannelDefinition definition, byte[] credential) {
    boolean hasCredential = credential != null ? credential.length > 0 : definition.hasCredential();
    ChannelDefinition stored =
        new ChannelDefinition(
            definition.name(),
            definition.type(),
            definition.settings(),
            definition.route(),
            definition.enabled(),
            hasCredential,
            definition.updatedBy(),
            definition.updatedAt());
    if (credential != null) {
      if (credential.length == 0) {
        secrets.remove(definition.secretName());
      } else {
        secrets.put(definition.secretName(), credential);
      }
    }
    store.write(
        "save notification channel " + definition.name(),
        io.bulwark.api.store.WritePriority.ROUTINE,
        w -> {
          w.map(Formats.CHANNELS).put(stored.name(), stored);
          return null;
        });
    channels.put(stored.name(), stored);
    restart(stored.name());
    reconcileSoon = true;
  }

  /** Removes a channel, what waits for it and its credential; false if there was none. */
  synchronized boolean delete(String name) {
    ChannelDefinition existing = channels.get(name);
    if (existing == null) {
      return false;
    }
    store.write(
        "delete notification channel " + name,
        io.bulwark.api.store.WritePriority.ROUTINE,
        w -> {
          w.map(Formats.CHANNELS).remove(name);
          return null;
        });
    channels.remove(name);
    ChannelWorker w = workers.remove(name);
    if (w != null) {
      w.stop(2_000);
    }
    outbox.removeChannel(name);
    secrets.remove(existing.secretName());
    statuses.remove(name);
    openErrors.remove(name);
    return true;
  }

  /**
   * Sends a made-up finding through the channel now, ahead of its queue.
   *
   * @throws IllegalStateException if the channel does not deliver now (off, type missing)
   */
  java.util.concurrent.CompletableFuture<Long> test(String name, String requestedBy) {
    ChannelWorker w = workers.get(name);
    if (w == null) {
      ChannelDefinition c = channels.get(name);
      String why =
          c == null
              ? "there is no channel '" + name + "'"
              : !c.enabled()
                  ? "the channel '" + name + "' is switched off"
                  : openErrors.getOrDefault(
                      name, "the channel type '" + c.type() + "' is not installed");
      throw new IllegalStateException(why);
    }
    Instant now = clock.instant();
    Finding f =
        new Finding(
            "test-" + UUID.randomUUID(),
            "bulwark-test",
            new NodeId(appliance),
            -1,
            Severity.INFO,
            FindingState.OPEN,
            now,
            now,
            null,
            "Test notification from Bulwark, sent by " + requestedBy + "; no action needed",
            Map.of("channel", name),
            "None: this confirms that the channel reaches its receiver.",
            1.0,
            1,
            "");
    return w.test(new Notification(f.id(), Event.TEST, f, Map.of(), now));
  }

  /** One channel's state for the API. */
  record View(
      ChannelDefinition channel,
      boolean delivering,
      String problem,
      int waiting,
      Instant oldestWaiting,
      long dropped,
      ChannelStatus.Snapshot status,
      Instant nextAttempt) {}

  /** Returns each channel's state. */
  List<View> views() {
    List<View> views = new ArrayList<>();
    for (ChannelDefinition c : channels().values()) {
      ChannelWorker w = workers.get(c.name());
      OutboxEntry oldest = outbox.oldest(c.name());
      views.add(
          new View(
              c,
              w != null,
              w != null ? "" : problem(c),
              outbox.waitingCount(c.name()),
              oldest == null ? null : oldest.notification().at(),
              outbox.droppedCount(c.name()),
              statuses.computeIfAbsent(c.name(), n -> new ChannelStatus()).snapshot(),
              w == null ? null : w.nextAttempt()));
    }
    return views;
  }

  private String problem(ChannelDefinition c) {
    if (!c.enabled()) {
      return "switched off";
    }
    if (!types.containsKey(c.type())) {
      return "the channel type '"
          + c.type()
          + "' is not installed or its bundle is stopped; notifications wait in the outbox";
    }
    return openErrors.getOrDefault(c.name(), "starting");
  }

  private synchronized void restartChannels(String type) {
    for (ChannelDefinition c : channels.values()) {
      if (c.type().equals(type)) {
        restart(c.name());
      }
    }
  }

  /** Replaces the worker of a channel after its definition or type changed. */
  private synchronized void restart(String name) {
    ChannelWorker old = workers.remove(name);
    if (old != null) {
      old.stop(2_000);
    }
    openErrors.remove(name);
    ChannelDefinition c = channels.get(name);
    if (c == null || !c.enabled() || stopped) {
      return;
    }
    ChannelType type = types.get(c.type());
    if (type == null) {
      return;
    }
    byte[] credential = secrets.get(c.secretName()).orElse(null);
    ChannelSender sender;
    try {
      sender = type.open(config(c, credential));
    } catch (RuntimeException e) {
      openErrors.put(name, "its settings are refused: " + e.getMessage());
      LOG.log(
          Level.WARNING,
          "Notification channel {0} cannot start: {1}. Correct it on the Alerts page.",
          name,
          e.getMessage());
      return;
    } finally {
      if (credential != null) {
        Arrays.fill(credential, (byte) 0);
      }
    }
    ChannelWorker w =
        new ChannelWorker(
            c, sender, outbox, statuses.computeIfAbsent(name, n -> new ChannelStatus()), clock);
    workers.put(name, w);
    w.start();
  }

  private ChannelConfig config(ChannelDefinition c, byte[] credential) {
    return new ChannelConfig(c.name(), c.settings(), credential, appliance, externalUrl);
  }

  // ---- routing, on the router thread ----

  private void route() {
    long lastReconcile = 0;
    Map<String, Map<String, String>> labels = Map.of();
    long labelsAt = 0;
    while (!stopped) {
      try {
        Finding f = queue.poll(1, TimeUnit.SECONDS);
        long now = clock.millis();
        if (now - labelsAt > 10_000) {
          labels = labelsByNode();
          labelsAt = now;
        }
        if (f != null) {
          List<Finding> batch = new ArrayList<>();
          batch.add(f);
          queue.drainTo(batch, 999);
          process(batch, labels);
        }
        if (reconcileSoon || now - lastReconcile >= reconcileMillis) {
          reconcileSoon = false;
          lastReconcile = now;
          reconcile(labels);
        }
      } catch (InterruptedException e) {
        if (stopped) {
          return;
        }
      } catch (StoreUnavailableException e) {
        reconcileSoon = false;
        LOG.log(
            Level.WARNING,
            "Notifications could not be queued: {0}. They are worked out again from the findings"
                + " once the store accepts writes.",
            e.getMessage());
        sleepQuietly(5_000);
        reconcileSoon = true;
      } catch (RuntimeException e) {
        LOG.log(Level.ERROR, "The notification router failed; it carries on.", e);
        sleepQuietly(1_000);
        reconcileSoon = true;
      }
    }
  }

  private void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      // stopping
    }
  }

  /**
   * Turns finding changes into notifications for the channels they are news to, in the order they
   * happened, and queues them in one store write.
   */
  void process(List<Finding> batch, Map<String, Map<String, String>> labels) {
    Outbox.Change change = new Outbox.Change();
    Map<String, Optional<Told>> overlay = new HashMap<>();
    Instant now = clock.instant();
    for (Finding f : batch) {
      for (ChannelDefinition c : channels.values()) {
        if (c.enabled()) {
          decide(c, f, labels.getOrDefault(f.node().value(), Map.of()), now, change, overlay);
        }
      }
    }
    outbox.apply(change);
    change.add.forEach(e -> lastSentMillis.put(e.dedupKey(), now.toEpochMilli()));
    wakeAll(change);
  }

  private void decide(
      ChannelDefinition c,
      Finding f,
      Map<String, String> nodeLabels,
      Instant now,
      Outbox.Change change,
      Map<String, Optional<Told>> overlay) {
    String key = Told.key(c.name(), f.id());
    Optional<Told> seen = overlay.get(key);
    Told told = seen != null ? seen.orElse(null) : outbox.told(c.name(), f.id());
    Event event = null;
    if (f.isOpen() && held(f, now)) {
      // In maintenance or snoozed: detected, not notified; sent by a later reconciliation if it
      // still holds when the hold ends.
      return;
    }
    if (f.isOpen()) {
      if (told == null) {
        if (c.route().matches(f, nodeLabels)) {
          event = Event.OPENED;
        }
      } else if (told.severity() != f.severity()) {
        event = Event.CHANGED;
      }
      if (event != null) {
        Told latest = new Told(c.name(), f.id(), f.severity());
        change.forget.remove(key);
        change.tell.removeIf(t -> t.key().equals(key));
        change.tell.add(latest);
        overlay.put(key, Optional.of(latest));
      }
    } else if (told != null) {
      change.tell.removeIf(t -> t.key().equals(key));
      change.forget.add(key);
      overlay.put(key, Optional.empty());
      if (c.route().sendResolved()) {
        event = Event.RESOLVED;
      }
    }
    if (event != null) {
      Instant at = event == Event.RESOLVED && f.resolvedAt() != null ? f.resolvedAt() : now;
      String id = f.id() + ":" + event.name().toLowerCase(java.util.Locale.ROOT) + ":" + at;
      change.add.add(outbox.entry(c.name(), new Notification(id, event, f, nodeLabels, at)));
    }
  }

  /**
   * Compares the open findings with what each channel was told: sends what was missed, resolves
   * what resolved unseen, and repeats open ones to channels that want them repeated.
   */
  void reconcile(Map<String, Map<String, String>> labels) {
    // The stored open findings: what the listeners were told (the health engine stores a change
    // before it tells them). Not the engine itself: it calls this component, a static reference
    // back would be a cycle.
    List<Finding> open = new ArrayList<>(findings.find(FindingQuery.open().withLimit(100_000)));
    // In the order they changed, as the engine told them: when a channel's bound trims, the
    // oldest news goes, not whichever a hash order put first.
    open.sort(Comparator.comparing(Finding::lastSeen).thenComparing(Finding::id));
    Map<String, Finding> openById = new HashMap<>();
    open.forEach(f -> openById.put(f.id(), f));
    List<Finding> toProcess = new ArrayList<>(open);
    Set<String> gone = new HashSet<>();
    for (Told t : outbox.allTold()) {
      if (!openById.containsKey(t.findingId()) && gone.add(t.findingId())) {
        Optional<Finding> now = findings.get(t.findingId());
        if (now.isPresent() && now.get().isOpen()) {
          continue;
        }
        toProcess.add(now.orElseGet(() -> standIn(t)));
      }
    }
    for (Told t : outbox.allTold()) {
      if (!channels.containsKey(t.channel())) {
        Outbox.Change c = new Outbox.Change();
        c.forget.add(t.key());
        outbox.apply(c);
      }
    }
    process(toProcess, labels);
    repeat(openById, labels);
  }

  /** A finding the store no longer has (pruned): resolved now, for the channels that were told. */
  private Finding standIn(Told t) {
    Instant now = clock.instant();
    return new Finding(
            t.findingId(),
            "bulwark-finding",
            new NodeId(appliance),
            -1,
            t.severity(),
            FindingState.OPEN,
            now,
            now,
            null,
            "a finding the appliance no longer holds",
            Map.of(),
            "",
            1.0,
            1,
            "")
        .resolve(now);
  }

  private void repeat(Map<String, Finding> open, Map<String, Map<String, String>> labels) {
    Outbox.Change change = new Outbox.Change();
    Instant now = clock.instant();
    for (ChannelWorker w : workers.values()) {
      long every = w.sender().refreshEvery().toMillis();
      if (every <= 0) {
        continue;
      }
      String channel = w.channel().name();
      for (Told t : outbox.allTold()) {
        if (!t.channel().equals(channel)) {
          continue;
        }
        Finding f = open.get(t.findingId());
        String key = channel + "\u0000" + t.findingId();
        if (f == null
            || held(f, now)
            || outbox.waiting(channel, f.id())
            || now.toEpochMilli() - lastSentMillis.getOrDefault(key, 0L) < every) {
          continue;
        }
        String id = f.id() + ":repeated:" + now;
        change.add.add(
            outbox.entry(
                channel,
                new Notification(
                    id, Event.REPEATED, f, labels.getOrDefault(f.node().value(), Map.of()), now)));
      }
    }
    outbox.apply(change);
    change.add.forEach(e -> lastSentMillis.put(e.dedupKey(), now.toEpochMilli()));
    wakeAll(change);
  }

  // ---- notices ----

  @Override
  public List<String> tell(String id, String audience, Finding finding, String text) {
    Map<String, String> nodeLabels = labelsByNode().getOrDefault(finding.node().value(), Map.of());
    Instant now = clock.instant();
    Notification notice = new Notification(id, Event.NOTICE, finding, nodeLabels, now, text);
    Outbox.Change change = new Outbox.Change();
    List<String> to = new ArrayList<>();
    for (ChannelDefinition c : new TreeMap<>(channels).values()) {
      if (c.enabled() && (c.name().equals(audience) || c.route().matches(finding, nodeLabels))) {
        change.add.add(outbox.entry(c.name(), notice));
        to.add(c.name());
      }
    }
    outbox.apply(change);
    wakeAll(change);
    LOG.log(
        Level.INFO,
        "Notice {0} for {1} about {2} queued for {3}",
        id,
        audience,
        finding.node().value(),
        to.isEmpty() ? "no channel (none is named so or carries the finding)" : to);
    return List.copyOf(to);
  }

  private boolean held(Finding f, Instant at) {
    Maintenance m = maintenance;
    return m != null && m.covers(f, at);
  }

  private void wakeAll(Outbox.Change change) {
    change.add.stream()
        .map(OutboxEntry::channel)
        .distinct()
        .map(workers::get)
        .filter(java.util.Objects::nonNull)
        .forEach(ChannelWorker::wake);
  }

  private Map<String, Map<String, String>> labelsByNode() {
    TelemetryTargets t = targets;
    if (t == null) {
      return Map.of();
    }
    Map<String, Map<String, String>> byNode = new HashMap<>();
    for (TargetStatus s : t.targets()) {
      if (s.node() == null || s.node().isEmpty()) {
        continue;
      }
      Map<String, String> labels = new TreeMap<>();
      s.target()
          .labels()
          .forEach(
              (k, v) -> {
                if (!k.startsWith("__")) {
                  labels.put(k, v);
                }
              });
      byNode.putIfAbsent(s.node(), labels);
    }
    return byNode;
  }

  // ---- the subsystem report ----

  @Override
  public SubsystemStatus status() {
    List<String> failing = new ArrayList<>();
    int waiting = 0;
    long dropped = 0;
    int delivering = 0;
    for (View v : views()) {
      waiting += v.waiting();
      dropped += v.dropped();
      ChannelDefinition c = v.channel();
      if (!c.enabled()) {
        continue;
      }
      if (v.delivering()) {
        delivering++;
      }
      if (v.delivering() && v.status().consecutiveFailures() > 0 && v.waiting() > 0) {
        failing.add(
            "channel '"
                + c.name()
                + "' ("
                + c.type()
                + "): "
                + v.waiting()
                + " waiting, last attempt failed: "
                + v.status().lastError());
      } else if (!v.delivering()) {
        failing.add(
            "channel '" + c.name() + "' (" + c.type() + ") is not delivering: " + v.problem());
      }
    }
    SubsystemState state = failing.isEmpty() ? SubsystemState.UP : SubsystemState.DEGRADED;
    if (state != lastState) {
      lastState = state;
      stateSince = clock.instant();
    }
    String summary;
    if (!failing.isEmpty()) {
      summary = String.join("; ", failing);
    } else if (channels.isEmpty()) {
      summary = "no notification channels are configured: findings are shown here only";
    } else {
      summary = delivering + " channel(s) delivering, " + waiting + " notification(s) waiting";
    }
    Map<String, Double> m = new TreeMap<>();
    m.put("bulwark_notify_waiting", (double) waiting);
    m.put("bulwark_notify_dropped", (double) dropped + queueDropped);
    m.put("bulwark_notify_failing_channels", (double) failing.size());
    return new SubsystemStatus(
        "notify",
        state,
        summary,
        failing.isEmpty()
            ? ""
            : "Check that each receiver is up and reachable from the appliance, and its settings on"
                + " the Alerts page (\"Send test\" shows the receiver's answer). Nothing is lost"
                + " while it waits.",
        stateSince,
        m);
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "bulwark";
    }
  }
}
