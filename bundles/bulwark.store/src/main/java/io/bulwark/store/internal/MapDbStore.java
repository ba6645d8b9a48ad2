package io.bulwark.store.internal;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.LifecycleState;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.CapacityLedger;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingRepository;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.TokenRepository;
import io.bulwark.api.security.UserAccount;
import io.bulwark.api.security.UserRepository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.mapdb.BTreeMap;
import org.mapdb.DB;
import org.mapdb.DBMaker;
import org.mapdb.HTreeMap;
import org.mapdb.Serializer;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The embedded store: inventory and findings in one MapDB file with a write-ahead log, so that
 * every write that returned survives a crash or {@code kill -9}. Each write is one transaction,
 * committed before the call returns.
 */
@Component(
    configurationPid = "io.bulwark.store",
    configurationPolicy = ConfigurationPolicy.REQUIRE,
    service = {
      FleetRepository.class,
      FindingRepository.class,
      UserRepository.class,
      TokenRepository.class,
      CapacityLedger.class
    })
@Designate(ocd = StoreConfig.class)
public final class MapDbStore
    implements FleetRepository,
        FindingRepository,
        UserRepository,
        TokenRepository,
        CapacityLedger,
        AutoCloseable {
  /** How long the hourly capacity account is kept. */
  static final Duration CAPACITY_KEPT = Duration.ofDays(400);

  private static final System.Logger LOG = System.getLogger(MapDbStore.class.getName());

  private final StoreOptions options;
  private final DB db;
  private final HTreeMap<String, byte[]> nodes;
  private final HTreeMap<String, byte[]> findings;
  private final HTreeMap<String, byte[]> openFindings;
  private final HTreeMap<String, byte[]> users;
  private final HTreeMap<String, byte[]> tokens;
  private final BTreeMap<Long, byte[]> capacity;

  @Activate
  public MapDbStore(StoreConfig config) {
    this(StoreOptions.from(config));
  }

  MapDbStore(StoreOptions options) {
    this.options = options;
    try {
      Files.createDirectories(options.dataDir());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot create the data folder "
              + options.dataDir()
              + " (BULWARK_DATA_DIR): "
              + e.getMessage()
              + "; check the path and its permissions",
          e);
    }
    this.db = open(options);
    this.nodes = db.hashMap("nodes", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen();
    this.findings = db.hashMap("findings", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen();
    this.openFindings =
        db.hashMap("findings.open", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen();
    this.users = db.hashMap("users", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen();
    this.tokens = db.hashMap("tokens", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen();
    this.capacity = db.treeMap("capacity", Serializer.LONG, Serializer.BYTE_ARRAY).createOrOpen();
    db.commit();
    LOG.log(
        Level.INFO,
        "Store open at {0}: {1} nodes, {2} findings ({3} open)",
        options.databaseFile(),
        nodes.size(),
        findings.size(),
        openFindings.size());
  }

  private static DB open(StoreOptions options) {
    try {
      return DBMaker.fileDB(options.databaseFile().toFile()).transactionEnable().make();
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "cannot open the store "
              + options.databaseFile()
              + ": "
              + e.getMessage()
              + " (is another Bulwark running on the same BULWARK_DATA_DIR?)",
          e);
    }
  }

  @Deactivate
  @Override
  public synchronized void close() {
    if (!db.isClosed()) {
      db.commit();
      db.close();
      // Also on stderr: during JVM shutdown java.util.logging may already have closed its handlers.
      System.err.println("Bulwark: store closed cleanly: " + options.databaseFile());
    }
  }

  @Override
  public List<Node> nodes() {
    List<Node> all = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : nodes.getEntries()) {
      all.add(RecordCodec.decodeNode(e.getKey(), e.getValue()));
    }
    all.sort(Comparator.comparing(Node::id));
    return all;
  }

  @Override
  public Optional<Node> node(NodeId id) {
    byte[] bytes = nodes.get(id.value());
    return bytes == null
        ? Optional.empty()
        : Optional.of(RecordCodec.decodeNode(id.value(), bytes));
  }

  @Override
  public synchronized Node recordObserved(NodeId id, Collection<Gpu> reported, Instant at) {
    Node existing = node(id).orElse(null);
    TreeMap<Integer, Gpu> gpus = new TreeMap<>();
    if (existing != null) {
      existing.gpus().forEach(g -> gpus.put(g.index(), g));
    }
    for (Gpu gpu : reported) {
      Gpu known = gpus.get(gpu.index());
      gpus.put(gpu.index(), known == null ? gpu : merge(known, gpu));
    }
    Node updated =
        existing == null
            ? new Node(id, LifecycleState.DEPLOYED, List.copyOf(gpus.values()), at, at)
            : new Node(id, existing.state(), List.copyOf(gpus.values()), existing.firstSeen(), at);
    nodes.put(id.value(), RecordCodec.encode(updated));
    db.commit();
    return updated;
  }

  private static Gpu merge(Gpu known, Gpu seen) {
    return new Gpu(
        known.index(),
        seen.uuid().isEmpty() ? known.uuid() : seen.uuid(),
        seen.model().isEmpty() ? known.model() : seen.model());
  }

  @Override
  public synchronized Node setState(NodeId id, LifecycleState state) {
    Node existing =
        node(id)
            .orElseThrow(
                () -> new NoSuchElementException("node " + id + " is not in the inventory"));
    Node updated = existing.withState(state);
    nodes.put(id.value(), RecordCodec.encode(updated));
    db.commit();
    return updated;
  }

  @Override
  public synchronized boolean remove(NodeId id) {
    boolean existed = nodes.remove(id.value()) != null;
    db.commit();
    return existed;
  }

  @Override
  public synchronized void save(Finding finding) {
    byte[] bytes = RecordCodec.encode(finding);
    findings.put(finding.id(), bytes);
    if (finding.state() == FindingState.OPEN) {
      openFindings.put(finding.id(), bytes);
    } else {
      openFindings.remove(finding.id());
    }
    db.commit();
  }

  @Override
  public Optional<Finding> get(String id) {
    byte[] bytes = findings.get(id);
    return bytes == null ? Optional.empty() : Optional.of(RecordCodec.decodeFinding(id, bytes));
  }

  @Override
  public List<Finding> find(FindingQuery query) {
    boolean onlyOpen = query.state().map(s -> s == FindingState.OPEN).orElse(false);
    HTreeMap<String, byte[]> source = onlyOpen ? openFindings : findings;
    Stream<Finding> all =
        source.getEntries().stream().map(e -> RecordCodec.decodeFinding(e.getKey(), e.getValue()));
    return all.filter(query::matches)
        .sorted(Comparator.comparing(Finding::lastSeen).reversed().thenComparing(Finding::id))
        .limit(query.limit())
        .toList();
  }

  @Override
  public List<UserAccount> users() {
    List<UserAccount> all = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : users.getEntries()) {
      all.add(AccountCodec.decodeAccount(e.getKey(), e.getValue()));
    }
    all.sort(Comparator.comparing(UserAccount::name));
    return all;
  }

  @Override
  public Optional<UserAccount> user(String name) {
    byte[] bytes = users.get(name);
    return bytes == null ? Optional.empty() : Optional.of(AccountCodec.decodeAccount(name, bytes));
  }

  @Override
  public synchronized void save(UserAccount account) {
    users.put(account.name(), AccountCodec.encode(account));
    db.commit();
  }

  @Override
  public synchronized boolean delete(String name) {
    boolean existed = users.remove(name) != null;
    db.commit();
    return existed;
  }

  @Override
  public List<ApiToken> tokens() {
    List<ApiToken> all = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : tokens.getEntries()) {
      all.add(AccountCodec.decodeToken(e.getKey(), e.getValue()));
    }
    all.sort(Comparator.comparing(ApiToken::createdAt).reversed().thenComparing(ApiToken::id));
    return all;
  }

  @Override
  public Optional<ApiToken> token(String id) {
    byte[] bytes = tokens.get(id);
    return bytes == null ? Optional.empty() : Optional.of(AccountCodec.decodeToken(id, bytes));
  }

  @Override
  public synchronized void save(ApiToken token) {
    tokens.put(token.id(), AccountCodec.encode(token));
    db.commit();
  }

  @Override
  public synchronized void save(CapacityInterval interval) {
    long start = interval.start().toEpochMilli();
    capacity.put(start, CapacityCodec.encode(interval));
    long oldest = start - CAPACITY_KEPT.toMillis();
    capacity.headMap(oldest, false).clear();
    db.commit();
  }

  @Override
  public List<CapacityInterval> since(Instant from) {
    List<CapacityInterval> found = new ArrayList<>();
    for (Map.Entry<Long, byte[]> e : capacity.tailMap(from.toEpochMilli(), true).entrySet()) {
      found.add(CapacityCodec.decode(e.getKey(), e.getValue()));
    }
    return found;
  }
}
