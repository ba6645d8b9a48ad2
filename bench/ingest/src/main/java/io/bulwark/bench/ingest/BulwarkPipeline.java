package io.bulwark.bench.ingest;

import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingListener;
import io.bulwark.health.internal.HealthEngine;
import io.bulwark.health.internal.HealthEngineConfig;
import io.bulwark.health.internal.StoreCapacityLedger;
import io.bulwark.health.internal.StoreFindings;
import io.bulwark.inventory.internal.StoreInventory;
import io.bulwark.inventory.internal.TelemetryInventory;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.store.internal.StoreConfig;
import io.bulwark.telemetry.internal.DcgmTelemetry;
import io.bulwark.telemetry.internal.TelemetryConfig;
import io.bulwark.testing.DetectorDiscovery;
import io.bulwark.testing.TypedConfig;
import io.vertx.core.Vertx;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Bulwark's whole ingest path, wired by hand as Service Component Runtime wires it in the
 * appliance: the real telemetry component (HTTP scrape, parse, series store) on a Vert.x instance
 * of its own, the real store in a scratch folder, the health engine, and every detector on the
 * class path with its default options, evaluated at the engine's default interval, with the
 * inventory fed from telemetry. Only the wiring is the benchmark's; each component runs its
 * production code.
 */
final class BulwarkPipeline implements AutoCloseable {
  private final Vertx vertx;
  private final MapDbRecordStore store;
  private final TelemetryInventory inventory;
  private final List<Detector> detectors;
  private final long baselineHeapBytes;
  private final DcgmTelemetry telemetry;
  private final HealthEngine engine;
  private final IngestTally tally;
  private final Set<String> opened = ConcurrentHashMap.newKeySet();

  /**
   * Starts the pipeline on the targets listed in {@code fileSd}, with its store in {@code dataDir}.
   *
   * @throws IllegalStateException if a component cannot be built or started
   */
  BulwarkPipeline(Path fileSd, Path dataDir) {
    this.vertx = Vertx.vertx();
    this.store =
        new MapDbRecordStore(
            TypedConfig.of(StoreConfig.class, Map.of("dataDir", dataDir.toString())));
    this.detectors = DetectorDiscovery.onClassPath().detectors();
    this.baselineHeapBytes = HeapReading.usedAfterFullGc();
    this.telemetry =
        new DcgmTelemetry(
            vertx, TypedConfig.of(TelemetryConfig.class, Map.of("fileSd", fileSd.toString())));
    StoreInventory fleet = new StoreInventory(store);
    this.inventory = new TelemetryInventory(telemetry, fleet);
    call(inventory, "start", new Class<?>[0]);
    this.engine =
        new HealthEngine(
            telemetry,
            new StoreFindings(store),
            new StoreCapacityLedger(store),
            TypedConfig.defaults(HealthEngineConfig.class));
    call(engine, "bindFleet", new Class<?>[] {FleetRepository.class}, fleet);
    for (Detector detector : detectors) {
      call(engine, "addDetector", new Class<?>[] {Detector.class}, detector);
    }
    call(
        engine,
        "addListener",
        new Class<?>[] {FindingListener.class},
        (FindingListener) this::printOpened);
    call(engine, "start", new Class<?>[0]);
    this.tally = new IngestTally(telemetry, telemetry, engine);
  }

  /**
   * Prints one {@code FINDING} line the first time a finding is seen open: when (epoch
   * milliseconds), its kind and place, so that the harness can time detection.
   */
  private void printOpened(Finding finding) {
    if (finding.resolvedAt() == null && opened.add(finding.id())) {
      System.out.println(
          "FINDING t_ms="
              + System.currentTimeMillis()
              + " kind="
              + finding.kind()
              + " node="
              + finding.node().value()
              + " gpu="
              + finding.gpu()
              + " first_seen_ms="
              + finding.firstSeen().toEpochMilli());
    }
  }

  /** Returns how long each detector took the last time it judged, in milliseconds, by name. */
  Map<String, Double> detectorMillis() {
    Map<String, Double> millis = new java.util.TreeMap<>();
    engine
        .status()
        .measurements()
        .forEach(
            (name, seconds) -> {
              if (name.startsWith(DETECTOR_PREFIX)) {
                millis.put(name.substring(DETECTOR_PREFIX.length()), seconds * 1000);
              }
            });
    return millis;
  }

  private static final String DETECTOR_PREFIX = "bulwark_engine_detector_last_seconds_";

  List<String> detectorNames() {
    return engine.detectors();
  }

  /** Returns the heap in use after a full collection, taken before the first scrape. */
  long baselineHeapBytes() {
    return baselineHeapBytes;
  }

  IngestTally.Snapshot snapshot() {
    return tally.snapshot();
  }

  @Override
  public void close() {
    tally.close();
    call(engine, "stop", new Class<?>[0]);
    call(inventory, "stop", new Class<?>[0]);
    call(telemetry, "stop", new Class<?>[0]);
    store.close();
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      System.err.println("bulwark: Vert.x did not close cleanly: " + e);
    }
  }

  /** Calls a life-cycle method that Service Component Runtime would call (package-private). */
  private static void call(Object component, String name, Class<?>[] types, Object... args) {
    try {
      Method method = component.getClass().getDeclaredMethod(name, types);
      method.setAccessible(true);
      method.invoke(component, args);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(
          component.getClass().getSimpleName() + "." + name + " failed: " + e.getCause(),
          e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "cannot call "
              + component.getClass().getSimpleName()
              + "."
              + name
              + "; has its life cycle changed? "
              + e,
          e);
    }
  }
}
