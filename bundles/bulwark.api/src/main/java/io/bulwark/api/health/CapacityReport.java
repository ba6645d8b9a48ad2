package io.bulwark.api.health;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The effective-capacity account of the fleet: of the GPUs installed, how many are healthy, how
 * fast the healthy ones run relative to a sound GPU, and the product as a share of what was paid
 * for.
 *
 * <p>effective = sum of relative performance over healthy GPUs / GPUs installed. With 100
 * installed, 80 healthy at 70 %: 0.56.
 */
public record CapacityReport(
    Instant at,
    int gpusInstalled,
    int gpusHealthy,
    double meanRelativePerformance,
    double effectiveCapacity,
    List<GpuCapacity> gpus) {

  public CapacityReport {
    gpus = List.copyOf(gpus);
  }

  /** Returns the account in one line: "80 of 100 GPUs healthy at 70% = 56% effective". */
  public String summary() {
    return String.format(
        Locale.ROOT,
        "%d of %d GPUs healthy at %.0f%% = %.0f%% effective",
        gpusHealthy,
        gpusInstalled,
        meanRelativePerformance * 100,
        effectiveCapacity * 100);
  }

  /**
   * Returns how many GPUs serve below their full performance.
   *
   * @since 1.2
   */
  public int gpusDegraded() {
    return (int) gpus.stream().filter(GpuCapacity::degraded).count();
  }

  /**
   * Returns how many GPUs do not serve: installed but not healthy.
   *
   * @since 1.2
   */
  public int gpusFailed() {
    return gpusInstalled - gpusHealthy;
  }

  /** Computes the account from per-GPU capacities. */
  public static CapacityReport of(Instant at, List<GpuCapacity> gpus) {
    int healthy = 0;
    double perf = 0;
    for (GpuCapacity g : gpus) {
      if (g.healthy()) {
        healthy++;
        perf += g.relativePerformance();
      }
    }
    double mean = healthy == 0 ? 0 : perf / healthy;
    double effective = gpus.isEmpty() ? 0 : perf / gpus.size();
    return new CapacityReport(at, gpus.size(), healthy, mean, effective, gpus);
  }
}
