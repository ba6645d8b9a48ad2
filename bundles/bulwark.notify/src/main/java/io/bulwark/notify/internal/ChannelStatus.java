package io.bulwark.notify.internal;

import java.time.Instant;

/** How one channel's deliveries went since start. Thread-safe. */
final class ChannelStatus {
  private long delivered;
  private long rejected;
  private int consecutiveFailures;
  private Instant lastSuccess;
  private Instant lastFailure;
  private String lastError = "";

  synchronized void delivered(int n, Instant at) {
    delivered += n;
    consecutiveFailures = 0;
    lastSuccess = at;
  }

  /** Returns how many attempts in a row have failed now. */
  synchronized int failed(String error, Instant at) {
    consecutiveFailures++;
    lastFailure = at;
    lastError = error;
    return consecutiveFailures;
  }

  synchronized void rejected(String error, int n, Instant at) {
    rejected += n;
    lastFailure = at;
    lastError = error;
  }

  synchronized Snapshot snapshot() {
    return new Snapshot(
        delivered, rejected, consecutiveFailures, lastSuccess, lastFailure, lastError);
  }

  record Snapshot(
      long delivered,
      long rejected,
      int consecutiveFailures,
      Instant lastSuccess,
      Instant lastFailure,
      String lastError) {}
}
