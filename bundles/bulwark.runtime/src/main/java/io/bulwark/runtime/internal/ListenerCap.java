package io.bulwark.runtime.internal;

import io.bulwark.api.system.ConnectionCounts;
import io.bulwark.api.system.ConnectionLimits;
import io.bulwark.api.system.ListenerGuard;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * The caps of one listener, how it shares them out, and its count of open connections per client
 * address. Of the listener's {@code total} places, an eighth is kept for known clients (the console
 * and addresses that authenticated recently, {@link KnownClients}), which may take any place; the
 * other clients' connections may take the rest, and those of them that have not completed their TLS
 * handshake only the rest less another eighth, kept for clients that have (someone logging in).
 * When a connection finds no place in its share, the connection from another client that has been
 * idle longest without a handshake is closed to make room for it, if the new connection's address
 * holds no connection without a handshake, or so few that it would still hold fewer than that one's
 * address: a newcomer gets in, while addresses flooding together cannot take places from one
 * another (which would cost a TLS engine per connection for nothing). Otherwise the new connection
 * is refused. Every connection stays within the per-address cap. Accepts happen on the acceptor
 * thread and the rest on the connections' event loops, so the state is kept under the cap's lock (a
 * few instructions per connection; an evicted connection is closed outside it).
 */
final class ListenerCap implements ListenerGuard {
  /** Addresses whose refusals are remembered, to name the busiest; more are forgotten. */
  private static final int MAX_REMEMBERED_REFUSERS = 1024;

  private final int port;
  private final ConnectionLimits limits;
  private final KnownClients known;
  private final Runnable onClose;
  private final int othersShare;
  private final int withoutHandshakeShare;
  private final Map<String, int[]> openBySource = new HashMap<>();
  private final Map<String, int[]> withoutHandshakeBySource = new HashMap<>();
  private final Map<String, long[]> refusedBySource = new HashMap<>();

  /** Other clients' connections without a completed handshake, the one idle longest first. */
  private final LinkedHashSet<AdmittedConnection> withoutHandshake = new LinkedHashSet<>();

  private int open;
  private int openKnown;
  private long refusedOverCap;
  private long refusedPerSource;
  private long refusedFileLimit;
  private long evicted;
  private String busiest = "";
  private long busiestRefused;

  ListenerCap(int port, ConnectionLimits limits, KnownClients known, Runnable onClose) {
    this.port = port;
    this.limits = limits;
    this.known = known;
    this.onClose = onClose;
    this.othersShare = limits.total() - reserve(limits.total());
    this.withoutHandshakeShare = othersShare - reserve(limits.total());
  }

  /**
   * The places kept for known clients, and as many for other clients that completed a handshake.
   */
  static int reserve(int total) {
    return total / 8;
  }

  int port() {
    return port;
  }

  ConnectionLimits limits() {
    return limits;
  }

  /** Returns the places other clients' connections may take, handshake or not. */
  int othersShare() {
    return othersShare;
  }

  /** Returns the places other clients' connections without a completed handshake may take. */
  int withoutHandshakeShare() {
    return withoutHandshakeShare;
  }

  /**
   * Admits a new connection from {@code source}, which {@code close} closes, closing another to
   * make room if its share is full; or refuses it.
   */
  Decision tryOpen(String source, Runnable close) {
    boolean fromKnown = known.isKnown(source);
    AdmittedConnection victim = null;
    AdmittedConnection admitted;
    synchronized (this) {
      if (held(openBySource, source) >= limits.perSource()) {
        refusedPerSource++;
        noteRefused(source);
        return Decision.refused(Refusal.PER_SOURCE);
      }
      if (!roomFor(fromKnown)) {
        victim = victimFor(source, fromKnown);
        if (victim == null) {
          refusedOverCap++;
          noteRefused(source);
          return Decision.refused(Refusal.OVER_CAP);
        }
        release(victim);
        evicted++;
        noteRefused(victim.source());
      }
      admitted = new AdmittedConnection(this, source, fromKnown, close);
      openBySource.computeIfAbsent(source, s -> new int[1])[0]++;
      open++;
      if (fromKnown) {
        openKnown++;
      } else {
        withoutHandshake.add(admitted);
        withoutHandshakeBySource.computeIfAbsent(source, s -> new int[1])[0]++;
      }
    }
    if (victim != null) {
      victim.evict();
    }
    return new Decision(admitted, victim, null);
  }

  private boolean roomFor(boolean fromKnown) {
    if (open >= limits.total()) {
      return false;
    }
    return fromKnown
        || (open - openKnown < othersShare && withoutHandshake.size() < withoutHandshakeShare);
  }

  /**
   * Returns the connection idle longest without a handshake, if a connection from {@code source}
   * may take its place: one from a known client always, another if its address holds no connection
   * without a handshake, or would hold fewer than the victim's address after the exchange.
   */
  private AdmittedConnection victimFor(String source, boolean fromKnown) {
    if (withoutHandshake.isEmpty()) {
      return null;
    }
    AdmittedConnection oldest = withoutHandshake.iterator().next();
    int held = held(withoutHandshakeBySource, source);
    return fromKnown || held == 0 || held + 1 < held(withoutHandshakeBySource, oldest.source())
        ? oldest
        : null;
  }

  synchronized void activity(AdmittedConnection c) {
    if (!c.handshakeDone && !c.released && withoutHandshake.remove(c)) {
      withoutHandshake.add(c);
    }
  }

  synchronized void handshakeDone(AdmittedConnection c) {
    if (!c.handshakeDone) {
      c.handshakeDone = true;
      leaveWithoutHandshake(c);
    }
  }

  synchronized void closed(AdmittedConnection c) {
    if (!c.released) {
      release(c);
    }
  }

  private void release(AdmittedConnection c) {
    c.released = true;
    leaveWithoutHandshake(c);
    decrement(openBySource, c.source());
    open = Math.max(0, open - 1);
    if (c.known()) {
      openKnown = Math.max(0, openKnown - 1);
    }
  }

  private void leaveWithoutHandshake(AdmittedConnection c) {
    if (withoutHandshake.remove(c)) {
      decrement(withoutHandshakeBySource, c.source());
    }
  }

  private static int held(Map<String, int[]> bySource, String source) {
    int[] n = bySource.get(source);
    return n == null ? 0 : n[0];
  }

  private static void decrement(Map<String, int[]> bySource, String source) {
    int[] n = bySource.get(source);
    if (n != null && --n[0] <= 0) {
      bySource.remove(source);
    }
  }

  /** Counts a connection from {@code source} refused for the open-file reserve. */
  synchronized void refusedForFiles(String source) {
    refusedFileLimit++;
    noteRefused(source);
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
  public void authenticated(String address) {
    known.authenticated(java.util.Objects.requireNonNull(address, "address"));
  }

  @Override
  public synchronized ConnectionCounts counts() {
    return new ConnectionCounts(
        open, openBySource.size(), refusedOverCap, refusedPerSource, refusedFileLimit, busiest);
  }

  /** Returns the connections open now from known clients. */
  synchronized int openKnown() {
    return openKnown;
  }

  /** Returns the connections open now from other clients without a completed handshake. */
  synchronized int openWithoutHandshake() {
    return withoutHandshake.size();
  }

  /** Returns the connections closed so far to make room for others. */
  synchronized long evicted() {
    return evicted;
  }

  /** Returns the addresses known now for having authenticated recently. */
  int knownAddresses() {
    return known.remembered();
  }

  @Override
  public void close() {
    onClose.run();
  }

  /** Why a connection was refused, or closed after it was admitted. */
  enum Refusal {
    OVER_CAP,
    PER_SOURCE,
    FILE_LIMIT,
    /** Closed, idle without a handshake, to make room for a newer connection. */
    EVICTED
  }

  /**
   * What {@link #tryOpen} decided: the connection admitted and the one closed to make room for it
   * (or null), or why it was refused.
   */
  record Decision(AdmittedConnection admitted, AdmittedConnection evicted, Refusal refusal) {
    static Decision refused(Refusal why) {
      return new Decision(null, null, why);
    }
  }
}
