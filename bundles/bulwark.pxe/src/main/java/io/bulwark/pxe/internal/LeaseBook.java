package io.bulwark.pxe.internal;

import io.bulwark.api.store.RecordMap;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.WritePriority;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The addresses of the provisioning subnet: bound leases (kept in the store, so that they survive a
 * restart or {@code kill -9}: a lease is written before its ACK is sent), offers made and not yet
 * requested (in memory, for a minute), and addresses a client declined as in use (set aside for ten
 * minutes). Thread-safe.
 */
final class LeaseBook {
  static final Duration OFFER_HOLD = Duration.ofMinutes(1);
  static final Duration DECLINE_HOLD = Duration.ofMinutes(10);

  private record Offer(int address, Instant until) {}

  private final RecordStore store;
  private final DhcpSettings settings;
  private final Map<String, Lease> byMac = new HashMap<>();
  private final Map<Integer, String> byAddress = new HashMap<>();
  private final Map<String, Offer> offers = new HashMap<>();
  private final Map<Integer, String> offered = new HashMap<>();
  private final Map<Integer, Instant> declined = new HashMap<>();
  private int cursor;

  LeaseBook(RecordStore store, DhcpSettings settings) {
    this.store = store;
    this.settings = settings;
    List<Lease> kept =
        store.read(r -> r.map(Lease.MAP).entries().stream().map(Map.Entry::getValue).toList());
    for (Lease l : kept) {
      byMac.put(l.mac(), l);
      byAddress.put(l.address(), l.mac());
    }
  }

  /**
   * Returns the address to offer {@code mac}: its static lease, the address it holds or was
   * offered, the one it asks for if that is free, else the next free one of the range; 0 if none is
   * left.
   */
  synchronized int offer(String mac, int requested, Instant now) {
    expireOffers(now);
    int address = addressFor(mac, requested, now);
    if (address != 0) {
      Offer old = offers.put(mac, new Offer(address, now.plus(OFFER_HOLD)));
      if (old != null) {
        offered.remove(old.address());
      }
      offered.put(address, mac);
    }
    return address;
  }

  private int addressFor(String mac, int requested, Instant now) {
    Integer fixed = settings.fixed().get(mac);
    if (fixed != null) {
      return fixed;
    }
    Lease held = byMac.get(mac);
    if (held != null && !held.fixed()) {
      return held.address();
    }
    Offer offer = offers.get(mac);
    if (offer != null) {
      return offer.address();
    }
    if (requested != 0 && free(requested, mac, now, false)) {
      return requested;
    }
    int size = settings.rangeSize();
    // First pass: never-bound addresses; second: addresses whose lease has expired.
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < size; i++) {
        int a = settings.rangeStart() + (int) ((cursor + (long) i) % size);
        if (free(a, mac, now, pass == 1)) {
          cursor = (int) ((cursor + (long) i + 1) % size);
          return a;
        }
      }
    }
    return 0;
  }

  private boolean free(int address, String mac, Instant now, boolean reuseExpired) {
    if (Integer.compareUnsigned(address, settings.rangeStart()) < 0
        || Integer.compareUnsigned(address, settings.rangeEnd()) > 0
        || address == settings.server()
        || address == settings.router()
        || settings.fixed().containsValue(address)) {
      return false;
    }
    Instant until = declined.get(address);
    if (until != null) {
      if (until.isAfter(now)) {
        return false;
      }
      declined.remove(address);
    }
    String offeredTo = offered.get(address);
    if (offeredTo != null && !offeredTo.equals(mac)) {
      return false;
    }
    String boundTo = byAddress.get(address);
    if (boundTo == null || boundTo.equals(mac)) {
      return true;
    }
    return reuseExpired && !byMac.get(boundTo).activeAt(now);
  }

  /**
   * Binds {@code address} to {@code mac} if it may have it (its offer, its lease, its static
   * address, or a free address of the range it asks for after a reboot), writing the lease to the
   * store before it returns; returns null if it may not.
   *
   * @throws io.bulwark.api.store.StoreUnavailableException if the lease cannot be written (no ACK
   *     is then sent; the client asks again)
   */
  synchronized Lease bind(String mac, int address, String hostname, Instant now) {
    expireOffers(now);
    Integer fixed = settings.fixed().get(mac);
    boolean allowed;
    if (fixed != null) {
      allowed = fixed == address;
    } else {
      Offer offer = offers.get(mac);
      Lease held = byMac.get(mac);
      allowed =
          (offer != null && offer.address() == address)
              || (held != null && held.address() == address)
              || free(address, mac, now, true);
    }
    if (!allowed) {
      return null;
    }
    Lease lease =
        new Lease(
            mac,
            address,
            fixed != null ? null : now.plus(settings.leaseTime()),
            fixed != null,
            hostname);
    String previous = byAddress.get(address);
    store.write(
        "bind " + DhcpPacket.dotted(address) + " to " + mac,
        WritePriority.ROUTINE,
        w -> {
          RecordMap<String, Lease> m = w.map(Lease.MAP);
          if (previous != null && !previous.equals(mac)) {
            m.remove(previous);
          }
          m.put(mac, lease);
          return null;
        });
    Lease old = byMac.put(mac, lease);
    if (old != null && old.address() != address) {
      byAddress.remove(old.address());
    }
    if (previous != null && !previous.equals(mac)) {
      byMac.remove(previous);
    }
    byAddress.put(address, mac);
    Offer o = offers.remove(mac);
    if (o != null) {
      offered.remove(o.address());
    }
    return lease;
  }

  /** Ends the lease of {@code mac} on {@code address} (DHCPRELEASE); false if it held none. */
  synchronized boolean release(String mac, int address) {
    Lease held = byMac.get(mac);
    if (held == null || held.address() != address) {
      return false;
    }
    store.write(
        "release " + DhcpPacket.dotted(address) + " of " + mac,
        WritePriority.ROUTINE,
        w -> w.map(Lease.MAP).remove(mac));
    byMac.remove(mac);
    byAddress.remove(address);
    return true;
  }

  /** Sets {@code address} aside: a client found it in use (DHCPDECLINE). */
  synchronized void decline(String mac, int address, Instant now) {
    release(mac, address);
    Offer o = offers.remove(mac);
    if (o != null) {
      offered.remove(o.address());
    }
    declined.put(address, now.plus(DECLINE_HOLD));
  }

  /** Returns the lease {@code mac} holds, or null. */
  synchronized Lease lease(String mac) {
    return byMac.get(mac);
  }

  /** Returns every bound lease, by address. */
  synchronized List<Lease> leases() {
    List<Lease> all = new ArrayList<>(byMac.values());
    all.sort(Comparator.comparingLong(l -> Integer.toUnsignedLong(l.address())));
    return all;
  }

  /** Returns how many addresses of the dynamic range are bound and active now. */
  synchronized int activeInRange(Instant now) {
    int n = 0;
    for (Lease l : byMac.values()) {
      if (!l.fixed()
          && l.activeAt(now)
          && Integer.compareUnsigned(l.address(), settings.rangeStart()) >= 0
          && Integer.compareUnsigned(l.address(), settings.rangeEnd()) <= 0) {
        n++;
      }
    }
    return n;
  }

  private void expireOffers(Instant now) {
    if (offers.isEmpty()) {
      return;
    }
    offers
        .entrySet()
        .removeIf(
            e -> {
              if (e.getValue().until().isAfter(now)) {
                return false;
              }
              offered.remove(e.getValue().address());
              return true;
            });
  }
}
