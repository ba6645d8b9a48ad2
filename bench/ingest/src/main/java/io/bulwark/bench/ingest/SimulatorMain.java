package io.bulwark.bench.ingest;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * Serves the benchmark's simulated fleet until it is stopped: {@code --nodes} nodes of {@code
 * --gpus} GPUs, {@code --nodes-per-address} of them behind each loopback address (one simulator
 * each), serving the fields of Bulwark's counters file ({@code --fields counters}, the default) or
 * every field the simulator models ({@code --fields all}), with the {@code file_sd} targets and
 * {@code prometheus.yml} written into {@code --out}. Prints one {@code READY} line naming both
 * files once every node answers.
 */
public final class SimulatorMain {
  private SimulatorMain() {}

  public static void main(String[] args) throws Exception {
    Flags flags =
        Flags.parse(
            args, Set.of("nodes", "gpus", "nodes-per-address", "out", "scenario", "fields"));
    SimulatedTargets fleet =
        new SimulatedTargets(
            Path.of(flags.text("out", "target/bench")),
            flags.number("nodes", 256),
            flags.number("gpus", 8),
            flags.number("nodes-per-address", 8),
            flags.text("scenario", "demo"),
            flags.text("fields", "counters"));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  fleet.close();
                  stopped.countDown();
                }));
    System.out.println(
        "READY targets="
            + fleet.targets()
            + " addresses="
            + fleet.addresses()
            + " file_sd="
            + fleet.targetsFile()
            + " prometheus_yml="
            + fleet.prometheusFile());
    stopped.await();
  }
}
