package io.bulwark.runtime.internal;

import java.time.Clock;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client addresses whose new connections a listener admits from the share it keeps for known
 * clients: the appliance's console, and every address whose request carried a valid session or API
 * token within the last {@value #WINDOW_MINUTES} minutes (as the admin plane reports through {@link
 * ListenerCap#authenticated}). The console is 127.0.0.1 and ::1 only, the addresses a browser or
 * {@code curl} on the appliance itself uses: any local process can bind the rest of 127/8 (as the
 * end-to-end tests do to play remote clients), so it earns nothing by being loopback. Remembers at
 * most {@value #MAX_REMEMBERED} addresses, forgetting the one that authenticated longest ago first.
 * Thread-safe.
 */
final class KnownClients {
  /** How long an authentication makes an address known: the default idle time of a session. */
  static final int WINDOW_MINUTES = 15;

  static final int MAX_REMEMBERED = 4096;
  private static final long WINDOW_MILLIS = WINDOW_MINUTES * 60_000L;

  private final Clock clock;

  /** When each address last authenticated, the one longest ago first. */
  private final LinkedHashMap<String, Long> lastAuthenticated = new LinkedHashMap<>();

  KnownClients(Clock clock) {
    this.clock = clock;
  }

  /** Notes that a request from {@code address} authenticated now. */
  synchronized void authenticated(String address) {
    lastAuthenticated.remove(address);
    lastAuthenticated.put(address, clock.millis());
    if (lastAuthenticated.size() > MAX_REMEMBERED) {
      Iterator<String> eldest = lastAuthenticated.keySet().iterator();
      eldest.next();
      eldest.remove();
    }
  }

  /** Returns true for the console and for an address that authenticated within the window. */
  synchronized boolean isKnown(String address) {
    if (isConsole(address)) {
      return true;
    }
    Long at = lastAuthenticated.get(address);
    if (at == null) {
      return false;
    }
    if (clock.millis() - at < WINDOW_MILLIS) {
      return true;
    }
    forgetExpired();
    return false;
  }

  /** Returns how many addresses are known now for having authenticated (the console aside). */
  synchronized int remembered() {
    forgetExpired();
    return lastAuthenticated.size();
  }

  /** Returns true for the appliance's own console: 127.0.0.1 and ::1. */
  static boolean isConsole(String address) {
    return address.equals("127.0.0.1")
        || address.equals("0:0:0:0:0:0:0:1")
        || address.equals("::1");
  }

  private void forgetExpired() {
    long now = clock.millis();
    Iterator<Map.Entry<String, Long>> oldestFirst = lastAuthenticated.entrySet().iterator();
    while (oldestFirst.hasNext() && now - oldestFirst.next().getValue() >= WINDOW_MILLIS) {
      oldestFirst.remove();
    }
  }
}
