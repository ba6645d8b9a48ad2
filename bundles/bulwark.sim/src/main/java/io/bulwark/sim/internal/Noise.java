package io.bulwark.sim.internal;

/**
 * Deterministic noise for the simulated fleet: every value is a pure function of the seed, the GPU,
 * a channel (which quantity) and the time step, so the same seed renders the same page for the same
 * instant, any number of threads can draw without sharing state, and nothing has to be stored
 * between requests.
 */
final class Noise {
  /** The time step under which per-GPU constants (its profile) are drawn. */
  static final long CONSTANT = Long.MIN_VALUE;

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private static final double TWO_PI = 2 * Math.PI;

  private final long seed;

  Noise(long seed) {
    this.seed = seed;
  }

  /** Returns a uniform value in [0, 1). */
  double uniform(long gpuKey, int channel, long step) {
    return (hash(gpuKey, channel, step) >>> 11) * 0x1.0p-53;
  }

  /** Returns a uniform value in [low, high). */
  double between(long gpuKey, int channel, double low, double high) {
    return low + (high - low) * uniform(gpuKey, channel, CONSTANT);
  }

  /** Returns a standard normal value (mean 0, standard deviation 1). */
  double gaussian(long gpuKey, int channel, long step) {
    long h = hash(gpuKey, channel, step);
    double u1 = ((h >>> 32) + 1) * 0x1.0p-32;
    double u2 = (h & 0xFFFFFFFFL) * 0x1.0p-32;
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(TWO_PI * u2);
  }

  /** Returns 64 uniformly distributed bits. */
  long bits(long gpuKey, int channel, long step) {
    return hash(gpuKey, channel, step);
  }

  private long hash(long gpuKey, int channel, long step) {
    long h = mix(seed + GOLDEN * (gpuKey + 1));
    h = mix(h ^ (0xD6E8FEB86659FD93L * (channel + 1)));
    return mix(h + GOLDEN * step);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
