package io.bulwark.store.internal;

import io.bulwark.api.store.RecordMap;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.StoreMap;
import io.bulwark.api.store.StoreReader;
import io.bulwark.api.store.WritePriority;
import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Function;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The embedded store: every area's records in named maps of one MapDB database, kept in a journaled
 * page file ({@link MapDbFile}), so that every write that returned survives a crash or {@code kill
 * -9}, and a write that fails (disk full, no file descriptor left) changes nothing and leaves the
 * store working for the next one. Each write is one transaction across its maps, committed before
 * the call returns. Also reports the store's state and its disk's headroom as the {@code store}
 * subsystem. The areas' repositories are built on it in their own bundles.
 */
@Component(
    configurationPid = "io.bulwark.store",
    configurationPolicy = ConfigurationPolicy.REQUIRE,
    service = {RecordStore.class, SubsystemCheck.class})
@Designate(ocd = StoreConfig.class)
public final class MapDbRecordStore implements RecordStore, SubsystemCheck, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(MapDbRecordStore.class.getName());

  private final StoreOptions options;
  private final MapDbFile<OpenMaps> db;
  private final StoreHealth health;

  @Activate
  public MapDbRecordStore(StoreConfig config) {
    this(StoreOptions.from(config), Clock.systemUTC());
  }

  MapDbRecordStore(StoreOptions options) {
    this(options, Clock.systemUTC());
  }

  /**
   * Opens the store of the data folder {@code dataDir} with the default reserve and cache, outside
   * the framework: the areas' tests of their repositories, and tools. Close it when done.
   */
  public static MapDbRecordStore inFolder(Path dataDir) {
    return new MapDbRecordStore(new StoreOptions(dataDir));
  }

  MapDbRecordStore(StoreOptions options, Clock clock) {
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
    LOG.log(
        Level.INFO,
        "Store open at {0}: {1} maps",
        options.databaseFile(),
        db.read(OpenMaps::count));
  }

  private static MapDbFile<OpenMaps> open(StoreOptions options, Clock clock) {
    try {
      return MapDbFile.open(
          options.databaseFile(),
          new DiskReserve(options.dataDir(), options.reserveBytes()),
          options.cachedPages(),
          OpenMaps::new,
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

  @Override
  public <T> T read(Function<StoreReader, T> query) {
    return db.read(maps -> query.apply(reader(maps, false)));
  }

  @Override
  public <T> T write(String what, WritePriority priority, Function<StoreReader, T> change) {
    return db.write(
        what, priority == WritePriority.RESERVED, maps -> change.apply(reader(maps, true)));
  }

  private static StoreReader reader(OpenMaps maps, boolean writable) {
    return new StoreReader() {
      @Override
      public <K, V> RecordMap<K, V> map(StoreMap<K, V> spec) {
        return new StoredRecords<>(spec, maps.raw(spec, writable), writable);
      }
    };
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
}
