package io.bulwark.telemetry.internal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.DoubleSupplier;

/**
 * The busy share of the machine's CPUs between one reading and the next, from the kernel's {@code
 * /proc/stat} counters (every process's time, not only the appliance's: what load shedding needs to
 * tell a starved machine from a slow exporter). Where {@code /proc/stat} cannot be read it falls
 * back to the system's load average over its processors (coarser), and gives NaN if neither is
 * there. Used by {@link ScrapePacer}, from the scrape loop's timer; not thread-safe.
 */
final class CpuBusy implements DoubleSupplier {
  private static final Path PROC_STAT = Path.of("/proc/stat");

  private final Path stat;
  private long lastBusy = -1;
  private long lastTotal = -1;

  CpuBusy() {
    this(PROC_STAT);
  }

  CpuBusy(Path stat) {
    this.stat = stat;
  }

  @Override
  public double getAsDouble() {
    long[] ticks = read();
    if (ticks == null) {
      return systemLoad();
    }
    long busy = ticks[0];
    long total = ticks[1];
    double share = Double.NaN;
    if (lastTotal >= 0 && total > lastTotal) {
      share = Math.max(0, Math.min(1, (double) (busy - lastBusy) / (total - lastTotal)));
    }
    lastBusy = busy;
    lastTotal = total;
    return share;
  }

  /**
   * Returns {busy, total} ticks of all CPUs from the first line of {@code /proc/stat}, or null if
   * it cannot be read. Idle and I/O wait are not busy; steal is (the CPU was taken from the
   * machine).
   */
  long[] read() {
    String first;
    try {
      byte[] bytes = Files.readAllBytes(stat);
      String text = new String(bytes, StandardCharsets.US_ASCII);
      int end = text.indexOf('\n');
      first = end < 0 ? text : text.substring(0, end);
    } catch (IOException | SecurityException e) {
      return null;
    }
    return parse(first);
  }

  /** Parses the {@code cpu} line of {@code /proc/stat}; null if it is not one. */
  static long[] parse(String line) {
    String[] fields = line.trim().split("\\s+");
    if (fields.length < 5 || !fields[0].equals("cpu")) {
      return null;
    }
    long total = 0;
    long idle = 0;
    try {
      // user nice system idle iowait irq softirq steal (guest time is already in user)
      for (int i = 1; i < Math.min(fields.length, 9); i++) {
        long value = Long.parseLong(fields[i]);
        total += value;
        if (i == 4 || i == 5) {
          idle += value;
        }
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return new long[] {total - idle, total};
  }

  /** The load average of the last minute over the processors: a coarse stand-in. */
  private static double systemLoad() {
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    int cpus = Runtime.getRuntime().availableProcessors();
    return load < 0 ? Double.NaN : Math.min(1, load / cpus);
  }
}
