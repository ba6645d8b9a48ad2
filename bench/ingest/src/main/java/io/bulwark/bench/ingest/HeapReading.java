package io.bulwark.bench.ingest;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The Java heap in use after a full collection, read through the platform {@link MemoryMXBean}:
 * what the live objects take, without the garbage that happens to be waiting. Used by the benchmark
 * for memory per series.
 */
final class HeapReading {
  private HeapReading() {}

  static long usedAfterFullGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    memory.gc();
    memory.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }

  static long usedNow() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
