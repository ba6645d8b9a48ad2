package io.bulwark.api.system;

/**
 * What a listener's guard has seen.
 *
 * @param open connections open now
 * @param sources distinct client addresses with a connection open now
 * @param refusedOverCap connections refused since the guard was set because the listener had {@link
 *     ConnectionLimits#total()} open
 * @param refusedPerSource connections refused because their address had {@link
 *     ConnectionLimits#perSource()} open
 * @param refusedFileLimit connections refused because the process was close to its open-file limit
 * @param busiestSource the address that had the most refused since the guard was set, or empty
 * @since 1.1
 */
public record ConnectionCounts(
    int open,
    int sources,
    long refusedOverCap,
    long refusedPerSource,
    long refusedFileLimit,
    String busiestSource) {

  public ConnectionCounts {
    busiestSource = busiestSource == null ? "" : busiestSource;
  }

  /** Returns every refusal, whatever the reason. */
  public long refused() {
    return refusedOverCap + refusedPerSource + refusedFileLimit;
  }
}
