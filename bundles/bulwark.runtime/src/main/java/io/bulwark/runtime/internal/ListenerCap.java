package io.bulwark.runtime.internal;

import io.bulwark.api.system.ConnectionCounts;
import io.bulwark.api.system.ConnectionLimits;
import io.bulwark.api.system.ListenerGuard;
import java.util.HashMap;
import java.util.Map;

/**
 * The caps of one listener and its count of open connections per client address. Accepts happen on
 * the acceptor thread and closes on the connections' event loops, so the counts are kept under the
 * cap's lock (a few instructions per connection).
 */
final class ListenerCap implements ListenerGuard {
  /** Addresses whose refusals are remembered, to name the busiest; more are forgotten. */
  private static final int MAX_REMEMBERED_REFUSERS = 1024;

  private final int port;
  private final ConnectionLimits limits;
  private final Runnable onClose;
  private final Map<String, int[]> openBySource = new HashMap<>();
  private final Map<String, long[]> refusedBySource = new HashMap<>();
  private int open;
  private long refusedOverCap;
  private long refusedPerSource;
  private long refusedFileLimit;
  private String busiest = "";
  private long busiestRefused;

  ListenerCap(int port, ConnectionLimits limits, Runnable onClose) {
    this.port = port;
    this.limits = limits;
    this.onClose = onClose;
  }

  int port() {
    return port;
  }

  ConnectionLimits limits() {
    return limits;
  }

  /**
   * Counts a new connection from {@code source} and returns null, or returns why it is refused:
   * {@link Refusal#OVER_CAP} or {@link Refusal#PER_SOURCE}.
   */
  synchronized Refusal tryOpen(String source) {
    if (open >= limits.total()) {
      refusedOverCap++;
      noteRefused(source);
      return Refusal.OVER_CAP;
    }
    int[] fromSource = openBySource.computeIfAbsent(source, s -> new int[1]);
    if (fromSource[0] >= limits.perSource()) {
      refusedPerSource++;
      noteRefused(source);
      return Refusal.PER_SOURCE;
    }
    fromSource[0]++;
    open++;
    return null;
  }

  /** Counts a connection from {@code source} refused for the open-file reserve. */
  synchronized void refusedForFiles(String source) {
    refusedFileLimit++;
    noteRefused(source);
  }

  /** Counts the close of a connection {@link #tryOpen} admitted. */
  synchronized void closed(String source) {
    int[] fromSource = openBySource.get(source);
    if (fromSource != null && --fromSource[0] <= 0) {
      openBySource.remove(source);
    }
    open = Math.max(0, open - 1);
  }

  private void noteRefused(String source) {
    if (refusedBySource.size() >= MAX_REMEMBERED_REFUSERS && !refusedBySource.containsKey(source)) {
      refusedBySource.clear();
    }
    long n = ++refusedBySource.computeIfAbsent(source, s -> new long[1])[0];
    if (n > busiestRefused || source.equals(busiest)) {
      busiest = source;
      busiestRefused = n;
    }
  }

  @Override
  public synchronized ConnectionCounts counts() {
    return new ConnectionCounts(
        open, openBySource.size(), refusedOverCap, refusedPerSource, refusedFileLimit, busiest);
  }

  @Override
  public void close() {
    onClose.run();
  }

  /** Why a connection was refused. */
  enum Refusal {
    OVER_CAP,
    PER_SOURCE,
    FILE_LIMIT
  }
}
