package io.bulwark.runtime.internal;

import io.bulwark.api.system.ConnectionCounts;
import io.bulwark.api.system.ConnectionLimits;
import io.bulwark.api.system.InboundConnections;
import io.bulwark.api.system.ListenerGuard;
import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import io.netty.channel.Channel;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides, for every connection a listener of the shared Vert.x accepts, whether it may stay: the
 * listener's caps and how it shares them between known clients, clients that completed their TLS
 * handshake and the rest ({@link #guard}, {@link ListenerCap}), and the open-file reserve ({@link
 * OpenFiles}). Refused connections are closed before their TLS handshake; when a share is full, the
 * connection idle longest without a handshake is closed to make room. Reports itself as the {@code
 * connections} subsystem: degraded for a minute after a refusal or such a close, naming the address
 * refused most and what to do. Thread-safe: {@link #admit} runs on the acceptor thread, closes on
 * the connections' event loops.
 */
final class ConnectionAdmission implements InboundConnections, SubsystemCheck {
  static final String SUBSYSTEM = "connections";
  private static final Logger LOG = System.getLogger(ConnectionAdmission.class.getName());
  private static final long QUIET_AFTER_MILLIS = 60_000;

  private final OpenFiles files;
  private final Clock clock;
  private final Map<Integer, ListenerCap> caps = new ConcurrentHashMap<>();
  private final AtomicLong refusedUncapped = new AtomicLong();

  /** When the last connection was refused, or -1 if none has been. */
  private volatile long lastRefusalMillis = -1;

  private volatile ListenerCap.Refusal lastReason;
  private volatile int lastPort;
  private volatile long lastLogMillis = -1;
  private volatile Instant since;

  ConnectionAdmission(OpenFiles files, Clock clock) {
    this.files = files;
    this.clock = clock;
    this.since = clock.instant();
  }

  @Override
  public ListenerGuard guard(int port, ConnectionLimits limits) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("a guarded port must be 1 to 65535, not " + port);
    }
    java.util.Objects.requireNonNull(limits, "limits");
    ListenerCap[] made = new ListenerCap[1];
    made[0] =
        new ListenerCap(port, limits, new KnownClients(clock), () -> caps.remove(port, made[0]));
    caps.put(port, made[0]);
    return made[0];
  }

  /**
   * Returns true if the connection {@code child}, just accepted on local port {@code port}, may
   * stay; it is then counted until it closes.
   */
  boolean admit(int port, Channel child) {
    String source = source(child.remoteAddress());
    ListenerCap cap = caps.get(port);
    if (!files.roomForConnection()) {
      if (cap != null) {
        cap.refusedForFiles(source);
      } else {
        refusedUncapped.incrementAndGet();
      }
      refused(port, source, ListenerCap.Refusal.FILE_LIMIT);
      return false;
    }
    AdmittedConnection admitted = null;
    if (cap != null) {
      ListenerCap.Decision decision = cap.tryOpen(source, child::close);
      if (decision.refusal() != null) {
        refused(port, source, decision.refusal());
        return false;
      }
      if (decision.evicted() != null) {
        refused(port, decision.evicted().source(), ListenerCap.Refusal.EVICTED);
      }
      admitted = decision.admitted();
      child.pipeline().addFirst(new HandshakeWatch(admitted));
    }
    files.opened();
    AdmittedConnection counted = admitted;
    child
        .closeFuture()
        .addListener(
            f -> {
              files.closed();
              if (counted != null) {
                counted.closed();
              }
            });
    return true;
  }

  private void refused(int port, String source, ListenerCap.Refusal reason) {
    long now = clock.millis();
    if (!refusedWithinAMinute(now)) {
      since = clock.instant();
    }
    lastRefusalMillis = now;
    lastReason = reason;
    lastPort = port;
    if (lastLogMillis < 0 || now - lastLogMillis >= QUIET_AFTER_MILLIS) {
      lastLogMillis = now;
      LOG.log(
          Level.WARNING,
          (reason == ListenerCap.Refusal.EVICTED
                  ? "Closed a connection to port " + port + " from " + source + " to make room: "
                  : "Refused a connection to port " + port + " from " + source + ": ")
              + reasonText(reason, caps.get(port))
              + ". Further refusals and closes are counted in /metrics"
              + " (bulwark_connections_refused_total, bulwark_connections_evicted_total) and logged"
              + " again in a minute at the earliest.");
    }
  }

  private String reasonText(ListenerCap.Refusal reason, ListenerCap cap) {
    return switch (reason) {
      case FILE_LIMIT ->
          "the process has "
              + files.open()
              + " of its "
              + files.limit()
              + " files open and keeps "
              + files.reserve()
              + " for the store, the audit log and telemetry";
      case PER_SOURCE ->
          "that address already has "
              + (cap == null ? "the most" : cap.limits().perSource())
              + " connections open (the per-address cap)";
      case OVER_CAP ->
          cap == null
              ? "the listener's places are taken"
              : "the places it may take are taken: the listener's "
                  + cap.limits().total()
                  + " (its cap), of which clients that have not authenticated recently hold at most "
                  + cap.othersShare()
                  + ", "
                  + cap.withoutHandshakeShare()
                  + " of them before their TLS handshake";
      case EVICTED ->
          "the share of connections that have not completed a TLS handshake ("
              + (cap == null ? "most" : cap.withoutHandshakeShare())
              + " of the listener's "
              + (cap == null ? "places" : cap.limits().total())
              + ") is full, and the one idle longest is closed";
    };
  }

  /** Samples the open files (on the sampling thread). */
  void sample() {
    files.sample();
  }

  OpenFiles files() {
    return files;
  }

  @Override
  public SubsystemStatus status() {
    long refused = refusedUncapped.get();
    long overCap = 0;
    long perSource = 0;
    long fileLimit = refusedUncapped.get();
    int open = 0;
    int openKnown = 0;
    int openWithoutHandshake = 0;
    long evicted = 0;
    int knownAddresses = 0;
    String busiest = "";
    long busiestCount = -1;
    for (ListenerCap cap : caps.values()) {
      ConnectionCounts c = cap.counts();
      open += c.open();
      openKnown += cap.openKnown();
      openWithoutHandshake += cap.openWithoutHandshake();
      evicted += cap.evicted();
      knownAddresses += cap.knownAddresses();
      overCap += c.refusedOverCap();
      perSource += c.refusedPerSource();
      fileLimit += c.refusedFileLimit();
      refused += c.refused();
      if (c.refused() > busiestCount && !c.busiestSource().isEmpty()) {
        busiest = c.busiestSource();
        busiestCount = c.refused();
      }
    }
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("bulwark_process_open_files", (double) files.open());
    m.put("bulwark_process_max_files", (double) files.limit());
    m.put("bulwark_process_file_reserve", (double) files.reserve());
    m.put("bulwark_connections_open", (double) open);
    m.put("bulwark_connections_open_known_clients", (double) openKnown);
    m.put("bulwark_connections_open_without_handshake", (double) openWithoutHandshake);
    m.put("bulwark_connections_known_addresses", (double) knownAddresses);
    m.put("bulwark_connections_evicted_total", (double) evicted);
    m.put("bulwark_connections_refused_total", (double) refused);
    m.put("bulwark_connections_refused_over_cap_total", (double) overCap);
    m.put("bulwark_connections_refused_per_source_total", (double) perSource);
    m.put("bulwark_connections_refused_file_limit_total", (double) fileLimit);
    long now = clock.millis();
    boolean nearLimit = !files.roomForConnection();
    if (!nearLimit && !refusedWithinAMinute(now)) {
      return new SubsystemStatus(
          SUBSYSTEM,
          SubsystemState.UP,
          open + " client connection(s) open; " + files.open() + " of " + limitText() + " files",
          "",
          quietSince(now),
          m);
    }
    ListenerCap.Refusal reason = nearLimit ? ListenerCap.Refusal.FILE_LIMIT : lastReason;
    String summary =
        (reason == ListenerCap.Refusal.EVICTED
                ? "connections are being closed to make room for new ones: "
                : "new connections are being refused: ")
            + reasonText(reason, caps.get(lastPort))
            + (busiest.isEmpty() ? "" : "; most refusals from " + busiest)
            + " ("
            + refused
            + " refused, "
            + evicted
            + " closed to make room since start)";
    String action =
        reason == ListenerCap.Refusal.FILE_LIMIT
            ? "Raise the service's open-file limit (LimitNOFILE) or fileDescriptorReserve's"
                + " headroom, and check bulwark_process_open_files for what holds them"
            : "If "
                + (busiest.isEmpty() ? "the refused address" : busiest)
                + " is not a known client, block it at the site firewall (the console and"
                + " addresses that authenticated in the last "
                + KnownClients.WINDOW_MINUTES
                + " minutes keep a share of their own); if it is, raise"
                + " maxConnectionsPerAddress or maxConnections (PID io.bulwark.web)";
    return new SubsystemStatus(SUBSYSTEM, SubsystemState.DEGRADED, summary, action, since, m);
  }

  private boolean refusedWithinAMinute(long now) {
    long last = lastRefusalMillis;
    return last >= 0 && now - last < QUIET_AFTER_MILLIS;
  }

  private Instant quietSince(long now) {
    long last = lastRefusalMillis;
    return last >= 0 ? Instant.ofEpochMilli(last + QUIET_AFTER_MILLIS) : since;
  }

  private String limitText() {
    return files.limit() < 0 ? "an unknown limit of" : String.valueOf(files.limit());
  }

  static String source(SocketAddress address) {
    if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
      return inet.getAddress().getHostAddress();
    }
    return "unknown";
  }
}
