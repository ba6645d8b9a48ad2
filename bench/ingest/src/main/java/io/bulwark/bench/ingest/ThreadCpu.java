package io.bulwark.bench.ingest;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU time Bulwark's threads have used, summed by role: the health engine, the page parsers,
 * the Vert.x event loops (HTTP) and the rest, so that the benchmark can say where the CPU per
 * sample goes without a profiler. Called from the tally's thread once a second.
 */
final class ThreadCpu {
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

  /** Returns the CPU milliseconds used so far by the threads alive now, by role. */
  Map<String, Long> millisByRole() {
    Map<String, Long> byRole = new LinkedHashMap<>();
    byRole.put("engine", 0L);
    byRole.put("parse", 0L);
    byRole.put("loops", 0L);
    byRole.put("other", 0L);
    long[] ids = threads.getAllThreadIds();
    ThreadInfo[] infos = threads.getThreadInfo(ids);
    for (int i = 0; i < ids.length; i++) {
      if (infos[i] == null) {
        continue;
      }
      long nanos = threads.getThreadCpuTime(ids[i]);
      if (nanos < 0) {
        continue;
      }
      byRole.merge(role(infos[i].getThreadName()), nanos / 1_000_000, Long::sum);
    }
    return byRole;
  }

  private static String role(String name) {
    if (name.startsWith("bulwark-health-engine")) {
      return "engine";
    }
    if (name.startsWith("bulwark-telemetry-parse")) {
      return "parse";
    }
    if (name.startsWith("vert.x-eventloop")) {
      return "loops";
    }
    return "other";
  }
}
