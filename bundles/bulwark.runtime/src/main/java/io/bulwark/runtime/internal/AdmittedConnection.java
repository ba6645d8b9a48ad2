package io.bulwark.runtime.internal;

/**
 * One connection a {@link ListenerCap} admitted, as the cap follows it: from a known client or not,
 * whether it has completed its TLS handshake, and whether its place has been given back. Its
 * methods are called on the connection's event loop; the cap keeps the state under its lock.
 */
final class AdmittedConnection {
  private final ListenerCap cap;
  private final String source;
  private final boolean known;
  private final Runnable close;

  /** Guarded by the cap's lock. */
  boolean handshakeDone;

  /** Guarded by the cap's lock: the place was given back (closed, or evicted to make room). */
  boolean released;

  AdmittedConnection(ListenerCap cap, String source, boolean known, Runnable close) {
    this.cap = cap;
    this.source = source;
    this.known = known;
    this.close = close;
  }

  /** Returns the client's address. */
  String source() {
    return source;
  }

  /** Returns true if it came from the console or an address that had authenticated recently. */
  boolean known() {
    return known;
  }

  /** Bytes arrived: it is no longer idle. */
  void activity() {
    cap.activity(this);
  }

  /** It completed its TLS handshake (or, on a listener without TLS, sent its first bytes). */
  void handshakeDone() {
    cap.handshakeDone(this);
  }

  /** It closed: its place is free. */
  void closed() {
    cap.closed(this);
  }

  /** Closes it to make room for another (its place was already given back). */
  void evict() {
    close.run();
  }
}
