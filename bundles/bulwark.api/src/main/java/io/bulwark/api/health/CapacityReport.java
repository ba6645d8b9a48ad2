package io.bulwark.api.health;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The effective-capacity account of the fleet: of the GPUs installed, how many serve (the field
 * {@code gpusHealthy}: healthy or degraded), how fast the serving ones run relative to a sound GPU,
 * and the product as a share of what was paid for. GPUs whose nodes do not report deliver nothing
 * to the account and are counted as {@linkplain #gpusUnknown unknown}.
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

  /**
   * Returns the account in one line: "80 of 100 GPUs serving at 70% = 56% effective", followed by
   * "; 8 GPUs unknown" when some GPUs' nodes do not report. Serving GPUs are the healthy and the
   * degraded ones together.
   */
  public String summary() {
    String account =
        String.format(
            Locale.ROOT,
            "%d of %d GPUs serving at %.0f%% = %.0f%% effective",
            gpusHealthy,
            gpusInstalled,
            meanRelativePerformance * 100,
            effectiveCapacity * 100);
    int unknown = gpusUnknown();
    return unknown == 0 ? account : account + "; " + unknown + " GPUs unknown";
  }

  /**
   * Returns how many GPUs serve at their full performance: the serving ones that are not degraded.
   * With {@link #gpusDegraded}, {@link #gpusFailed} and {@link #gpusUnknown} it adds up to the GPUs
   * installed.
   *
   * @since 1.3
   */
  public int gpusFullyHealthy() {
    return gpusHealthy - gpusDegraded();
  }

  /**
   * Returns how many GPUs belong to nodes that do not report telemetry: neither healthy nor failed
   * as far as Bulwark can see.
   *
   * @since 1.3
   */
  public int gpusUnknown() {
    return (int) gpus.stream().filter(GpuCapacity::unknown).count();
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
   * Returns how many GPUs do not serve although their node reports: an open critical finding on
   * them (since 1.3 the GPUs of silent nodes are {@link #gpusUnknown}, not failed).
   *
   * @since 1.2
   */
  public int gpusFailed() {
    return gpusInstalled - gpusHealthy - gpusUnknown();
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
