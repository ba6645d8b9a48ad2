package io.bulwark.bench.ingest;

import io.bulwark.sim.internal.FleetSimulator;
import io.bulwark.sim.internal.SimulatorConfig;
import io.bulwark.testing.TypedConfig;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The simulated fleet the benchmark scrapes, built from the real fleet simulator: the nodes are
 * split into groups of {@code nodesPerAddress}, each group one simulator on a loopback address of
 * its own (127.0.0.1, 127.0.0.2, ...: all of 127.0.0.0/8 is loopback on Linux), so that scrapers
 * see many exporter addresses as in a real fleet rather than every node behind one port. Group k
 * has its own node names ({@code gpu-a<k>-NNN}) and seed; the first group plays the requested
 * scenario, the others run healthy. Writes one {@code file_sd} file that both Bulwark and
 * Prometheus read, and the {@code prometheus.yml} for Prometheus.
 */
final class SimulatedTargets implements AutoCloseable {
  /** The scrape interval of both scrapers, Bulwark's telemetry default. */
  static final long INTERVAL_MILLIS = 1000;

  /** The scrape timeout of both scrapers, Bulwark's telemetry default. */
  static final long TIMEOUT_MILLIS = 800;

  private static final long SEED = 42;

  private final Vertx vertx;
  private final List<FleetSimulator> simulators = new ArrayList<>();
  private final Path targetsFile;
  private final Path prometheusFile;
  private final int targets;
  private final int addresses;

  /**
   * Starts the simulators and writes the two files into {@code folder}.
   *
   * @throws IOException if the files cannot be written or read back
   */
  SimulatedTargets(
      Path folder, int nodes, int gpusPerNode, int nodesPerAddress, String scenario, String fields)
      throws IOException {
    if (nodesPerAddress < 1) {
      throw new IllegalArgumentException(
          "nodesPerAddress must be positive, was " + nodesPerAddress);
    }
    Files.createDirectories(folder);
    int cores = Runtime.getRuntime().availableProcessors();
    this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(cores));
    JsonArray entries = new JsonArray();
    int groups = (nodes + nodesPerAddress - 1) / nodesPerAddress;
    try {
      for (int g = 0; g < groups; g++) {
        Path own = folder.resolve("simulator-" + g + ".json");
        SimulatorConfig config =
            TypedConfig.of(
                SimulatorConfig.class,
                Map.of(
                    "bindAddress",
                    loopback(g),
                    "port",
                    0,
                    "fileSd",
                    own.toString(),
                    "nodes",
                    Math.min(nodesPerAddress, nodes - g * nodesPerAddress),
                    "gpusPerNode",
                    gpusPerNode,
                    "nodePrefix",
                    String.format(Locale.ROOT, "gpu-a%04d-", g),
                    "scenario",
                    g == 0 ? scenario : "none",
                    "seed",
                    SEED + g,
                    "fields",
                    fields,
                    "bmcs",
                    0));
        simulators.add(new FleetSimulator(vertx, null, config));
        entries.addAll(new JsonArray(Files.readString(own, StandardCharsets.UTF_8)));
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    this.targets = entries.size();
    this.addresses = groups;
    this.targetsFile = folder.resolve("targets.json").toAbsolutePath();
    this.prometheusFile = folder.resolve("prometheus.yml").toAbsolutePath();
    writeAtomically(targetsFile, entries.encodePrettily() + "\n");
    writeAtomically(
        prometheusFile, PrometheusConfig.render(targetsFile, INTERVAL_MILLIS, TIMEOUT_MILLIS));
  }

  /** Returns the loopback address of group {@code group}: 127.0.0.1 for the first. */
  static String loopback(int group) {
    int host = group + 1;
    if (host >= 1 << 24) {
      throw new IllegalArgumentException("too many groups for 127.0.0.0/8: " + group);
    }
    return "127." + (host >> 16 & 255) + "." + (host >> 8 & 255) + "." + (host & 255);
  }

  int addresses() {
    return addresses;
  }

  Path targetsFile() {
    return targetsFile;
  }

  Path prometheusFile() {
    return prometheusFile;
  }

  int targets() {
    return targets;
  }

  @Override
  public void close() {
    try {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      System.err.println("simulator: Vert.x did not close cleanly: " + e);
    }
  }

  private static void writeAtomically(Path file, String content) throws IOException {
    Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
    Files.writeString(temp, content, StandardCharsets.UTF_8);
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
