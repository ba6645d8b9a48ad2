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
import io.bulwark.api.store.StoreUnavailableException;
import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.time.Clock;
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
import org.mapdb.HTreeMap;
import org.mapdb.Serializer;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The embedded store: inventory, findings, accounts, tokens and the capacity account in one MapDB
 * database kept in a journaled page file ({@link MapDbFile}), so that every write that returned
 * survives a crash or {@code kill -9}, and a write that fails (disk full, no file descriptor left)
 * changes nothing and leaves the store working for the next one. Each write is one transaction,
 * committed before the call returns; a refused write throws {@link StoreUnavailableException}. Also
 * reports the store's state and its disk's headroom as the {@code store} subsystem.
 */
@Component(
    configurationPid = "io.bulwark.store",
    configurationPolicy = ConfigurationPolicy.REQUIRE,
    service = {
      FleetRepository.class,
      FindingRepository.class,
      UserRepository.class,
      TokenRepository.class,
      CapacityLedger.class,
      SubsystemCheck.class
    })
@Designate(ocd = StoreConfig.class)
public final class MapDbStore
    implements FleetRepository,
        FindingRepository,
        UserRepository,
        TokenRepository,
        CapacityLedger,
        SubsystemCheck,
        AutoCloseable {
  /** Finding kinds about the appliance itself start with this. */
  static final String APPLIANCE_KIND_PREFIX = "appliance-";

  /** How long the hourly capacity account is kept. */
  static final Duration CAPACITY_KEPT = Duration.ofDays(400);

  private static final System.Logger LOG = System.getLogger(MapDbStore.class.getName());

  /** The MapDB structures of the store, opened on each (re)opened database. */
  private record Maps(
      HTreeMap<String, byte[]> nodes,
      HTreeMap<String, byte[]> findings,
      HTreeMap<String, byte[]> openFindings,
      HTreeMap<String, byte[]> users,
      HTreeMap<String, byte[]> tokens,
      BTreeMap<Long, byte[]> capacity) {

    static Maps open(DB db) {
      return new Maps(
          db.hashMap("nodes", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen(),
          db.hashMap("findings", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen(),
          db.hashMap("findings.open", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen(),
          db.hashMap("users", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen(),
          db.hashMap("tokens", Serializer.STRING, Serializer.BYTE_ARRAY).createOrOpen(),
          db.treeMap("capacity", Serializer.LONG, Serializer.BYTE_ARRAY).createOrOpen());
    }
  }

  private final StoreOptions options;
  private final MapDbFile<Maps> db;
  private final StoreHealth health;

  @Activate
  public MapDbStore(StoreConfig config) {
    this(StoreOptions.from(config), Clock.systemUTC());
  }

  MapDbStore(StoreOptions options) {
    this(options, Clock.systemUTC());
  }

  MapDbStore(StoreOptions options, Clock clock) {
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
    LegacyWal.remove(options.databaseFile());
    this.db = open(options, clock);
    this.health = new StoreHealth(db, clock);
    int[] counts =
        db.read(m -> new int[] {m.nodes().size(), m.findings().size(), m.openFindings().size()});
    LOG.log(
        Level.INFO,
        "Store open at {0}: {1} nodes, {2} findings ({3} open)",
        options.databaseFile(),
        counts[0],
        counts[1],
        counts[2]);
  }

  private static MapDbFile<Maps> open(StoreOptions options, Clock clock) {
    try {
      return MapDbFile.open(
          options.databaseFile(),
          new DiskReserve(options.dataDir(), options.reserveBytes()),
          options.cachedPages(),
          Maps::open,
          clock);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "cannot open the store "
              + options.databaseFile()
              + ": "
              + e.getMessage()
              + (e instanceof IllegalStateException
                  ? ""
                  : " (check the folder's permissions and free space)"),
          e);
    }
  }

  @Deactivate
  @Override
  public void close() {
    db.close();
    // Also on stderr: during JVM shutdown java.util.logging may already have closed its handlers.
    System.err.println("Bulwark: store closed cleanly: " + options.databaseFile());
  }

  @Override
  public SubsystemStatus status() {
    return health.status();
  }

  @Override
  public List<Node> nodes() {
    return db.read(
        m -> {
          List<Node> all = new ArrayList<>();
          for (Map.Entry<String, byte[]> e : m.nodes().getEntries()) {
            all.add(RecordCodec.decodeNode(e.getKey(), e.getValue()));
          }
          all.sort(Comparator.comparing(Node::id));
          return all;
        });
  }

  @Override
  public Optional<Node> node(NodeId id) {
    byte[] bytes = db.read(m -> m.nodes().get(id.value()));
    return bytes == null
        ? Optional.empty()
        : Optional.of(RecordCodec.decodeNode(id.value(), bytes));
  }

  @Override
  public Node recordObserved(NodeId id, Collection<Gpu> reported, Instant at) {
    return db.write(
        "record node " + id,
        false,
        m -> {
          byte[] before = m.nodes().get(id.value());
          Node existing = before == null ? null : RecordCodec.decodeNode(id.value(), before);
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
                  : new Node(
                      id, existing.state(), List.copyOf(gpus.values()), existing.firstSeen(), at);
          m.nodes().put(id.value(), RecordCodec.encode(updated));
          return updated;
        });
  }

  private static Gpu merge(Gpu known, Gpu seen) {
    return new Gpu(
        known.index(),
        seen.uuid().isEmpty() ? known.uuid() : seen.uuid(),
        seen.model().isEmpty() ? known.model() : seen.model());
  }

  @Override
  public Node setState(NodeId id, LifecycleState state) {
    return db.write(
        "set the state of node " + id,
        false,
        m -> {
          byte[] before = m.nodes().get(id.value());
          if (before == null) {
            throw new NoSuchElementException("node " + id + " is not in the inventory");
          }
          Node updated = RecordCodec.decodeNode(id.value(), before).withState(state);
          m.nodes().put(id.value(), RecordCodec.encode(updated));
          return updated;
        });
  }

  @Override
  public boolean remove(NodeId id) {
    if (db.read(m -> !m.nodes().containsKey(id.value()))) {
      return false;
    }
    return db.write("remove node " + id, false, m -> m.nodes().remove(id.value()) != null);
  }

  /**
   * Saves a finding. A finding about the appliance itself ({@code appliance-…}, e.g. the disk
   * filling) is written with priority, so that it is kept while routine writes are refused.
   */
  @Override
  public void save(Finding finding) {
    byte[] bytes = RecordCodec.encode(finding);
    db.write(
        "save finding " + finding.id(),
        finding.kind().startsWith(APPLIANCE_KIND_PREFIX),
        m -> {
          m.findings().put(finding.id(), bytes);
          if (finding.state() == FindingState.OPEN) {
            m.openFindings().put(finding.id(), bytes);
          } else {
            m.openFindings().remove(finding.id());
          }
          return null;
        });
  }

  @Override
  public Optional<Finding> get(String id) {
    byte[] bytes = db.read(m -> m.findings().get(id));
    return bytes == null ? Optional.empty() : Optional.of(RecordCodec.decodeFinding(id, bytes));
  }

  @Override
  public List<Finding> find(FindingQuery query) {
    boolean onlyOpen = query.state().map(s -> s == FindingState.OPEN).orElse(false);
    return db.read(
        m -> {
          HTreeMap<String, byte[]> source = onlyOpen ? m.openFindings() : m.findings();
          Stream<Finding> all =
              source.getEntries().stream()
                  .map(e -> RecordCodec.decodeFinding(e.getKey(), e.getValue()));
          return all.filter(query::matches)
              .sorted(Comparator.comparing(Finding::lastSeen).reversed().thenComparing(Finding::id))
              .limit(query.limit())
              .toList();
        });
  }

  @Override
  public List<UserAccount> users() {
    return db.read(
        m -> {
          List<UserAccount> all = new ArrayList<>();
          for (Map.Entry<String, byte[]> e : m.users().getEntries()) {
            all.add(AccountCodec.decodeAccount(e.getKey(), e.getValue()));
          }
          all.sort(Comparator.comparing(UserAccount::name));
          return all;
        });
  }

  @Override
  public Optional<UserAccount> user(String name) {
    byte[] bytes = db.read(m -> m.users().get(name));
    return bytes == null ? Optional.empty() : Optional.of(AccountCodec.decodeAccount(name, bytes));
  }

  @Override
  public void save(UserAccount account) {
    byte[] bytes = AccountCodec.encode(account);
    db.write(
        "save the account " + account.name(),
        true,
        m -> {
          m.users().put(account.name(), bytes);
          return null;
        });
  }

  @Override
  public boolean delete(String name) {
    return db.write("delete the account " + name, true, m -> m.users().remove(name) != null);
  }

  @Override
  public List<ApiToken> tokens() {
    return db.read(
        m -> {
          List<ApiToken> all = new ArrayList<>();
          for (Map.Entry<String, byte[]> e : m.tokens().getEntries()) {
            all.add(AccountCodec.decodeToken(e.getKey(), e.getValue()));
          }
          all.sort(
              Comparator.comparing(ApiToken::createdAt).reversed().thenComparing(ApiToken::id));
          return all;
        });
  }

  @Override
  public Optional<ApiToken> token(String id) {
    byte[] bytes = db.read(m -> m.tokens().get(id));
    return bytes == null ? Optional.empty() : Optional.of(AccountCodec.decodeToken(id, bytes));
  }

  @Override
  public void save(ApiToken token) {
    byte[] bytes = AccountCodec.encode(token);
    db.write(
        "save API token " + token.id(),
        true,
        m -> {
          m.tokens().put(token.id(), bytes);
          return null;
        });
  }

  @Override
  public void save(CapacityInterval interval) {
    long start = interval.start().toEpochMilli();
    byte[] bytes = CapacityCodec.encode(interval);
    db.write(
        "save the capacity account of " + interval.start(),
        false,
        m -> {
          m.capacity().put(start, bytes);
          long oldest = start - CAPACITY_KEPT.toMillis();
          m.capacity().headMap(oldest, false).clear();
          return null;
        });
  }

  @Override
  public List<CapacityInterval> since(Instant from) {
    return db.read(
        m -> {
          List<CapacityInterval> found = new ArrayList<>();
          for (Map.Entry<Long, byte[]> e :
              m.capacity().tailMap(from.toEpochMilli(), true).entrySet()) {
            found.add(CapacityCodec.decode(e.getKey(), e.getValue()));
          }
          return found;
        });
  }
}
