package io.bulwark.bench.ingest;

import io.bulwark.api.health.Detector;
import io.bulwark.health.internal.HealthEngine;
import io.bulwark.health.internal.HealthEngineConfig;
import io.bulwark.store.internal.MapDbStore;
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
import java.util.concurrent.TimeUnit;

/**
 * Bulwark's whole ingest path, wired by hand as Service Component Runtime wires it in the
 * appliance: the real telemetry component (HTTP scrape, parse, series store) on a Vert.x instance
 * of its own, the real store in a scratch folder, the health engine, and every detector on the
 * class path with its default options, evaluated at the engine's default interval. Only the wiring
 * is the benchmark's; each component runs its production code.
 */
final class BulwarkPipeline implements AutoCloseable {
  private final Vertx vertx;
  private final MapDbStore store;
  private final List<Detector> detectors;
  private final long baselineHeapBytes;
  private final DcgmTelemetry telemetry;
  private final HealthEngine engine;
  private final IngestTally tally;

  /**
   * Starts the pipeline on the targets listed in {@code fileSd}, with its store in {@code dataDir}.
   *
   * @throws IllegalStateException if a component cannot be built or started
   */
  BulwarkPipeline(Path fileSd, Path dataDir) {
    this.vertx = Vertx.vertx();
    this.store =
        new MapDbStore(TypedConfig.of(StoreConfig.class, Map.of("dataDir", dataDir.toString())));
    this.detectors = DetectorDiscovery.onClassPath().detectors();
    this.baselineHeapBytes = HeapReading.usedAfterFullGc();
    this.telemetry =
        new DcgmTelemetry(
            vertx, TypedConfig.of(TelemetryConfig.class, Map.of("fileSd", fileSd.toString())));
    this.engine =
        new HealthEngine(
            telemetry, store, store, store, TypedConfig.defaults(HealthEngineConfig.class));
    for (Detector detector : detectors) {
      call(engine, "addDetector", new Class<?>[] {Detector.class}, detector);
    }
    call(engine, "start", new Class<?>[0]);
    this.tally = new IngestTally(telemetry, engine);
  }

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
