package io.bulwark.store.internal;

import io.bulwark.api.fleet.Gpu;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.FindingState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A child process for the crash test: from the index given, writes findings (some with evidence
 * spanning pages) and nodes into a store as fast as it can and prints "committed N" after each
 * write returned, until it is killed.
 */
public final class StoreWriterProcess {
  private StoreWriterProcess() {}

  public static void main(String[] args) {
    MapDbStore store = new MapDbStore(new StoreOptions(Path.of(args[0])));
    int from = args.length > 1 ? Integer.parseInt(args[1]) : 0;
    System.out.println("ready");
    System.out.flush();
    for (int i = from; ; i++) {
      Instant at = Instant.ofEpochMilli(1_000_000L + i);
      store.save(
          CrashSafetyTest.finding(
              "finding-" + i, NodeId.of("gpu-node-" + (i % 64)), FindingState.OPEN, at, i % 7));
      store.recordObserved(
          NodeId.of("gpu-node-" + (i % 64)), List.of(new Gpu(i % 8, "GPU-" + i, "H100")), at);
      System.out.println("committed " + i);
      System.out.flush();
    }
  }
}
