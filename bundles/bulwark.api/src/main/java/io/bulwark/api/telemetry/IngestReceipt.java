package io.bulwark.api.telemetry;

/**
 * What telemetry did with a pushed batch: how many readings it filed, and how many it refused
 * because they were not newer than the newest sample of their series ({@code outOfOrder}) or
 * because they would have started a series beyond the telemetry limits ({@code overLimits}, also in
 * the {@code telemetry} subsystem's report).
 *
 * @since 1.4
 */
public record IngestReceipt(int accepted, int outOfOrder, int overLimits) {
  /** Returns true if every reading was filed. */
  public boolean complete() {
    return outOfOrder == 0 && overLimits == 0;
  }
}
