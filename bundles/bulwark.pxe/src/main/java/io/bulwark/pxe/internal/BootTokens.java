package io.bulwark.pxe.internal;

import io.bulwark.api.provisioning.BootPurpose;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One-time tokens that let a machine's boot environment report back: issued with the iPXE script of
 * one boot, for that MAC and purpose, redeemed once, refused after use or expiry. 256 bits from the
 * JVM's default {@link SecureRandom} (the FIPS DRBG on the appliance). Kept in memory: a restart of
 * the appliance voids them, and the machine's state timeout then fails it.
 *
 * <p>The table is bounded, since anyone on the provisioning network can fetch the script of a MAC
 * they made up: each MAC holds its {@value #PER_MAC} newest tokens, enlistments (MACs no machine
 * has) their {@value #MAX_ENLISTING} newest, and the oldest are dropped for new ones; expired
 * tokens are swept every minute; and past {@value #MAX} live tokens none is issued. Used by {@link
 * BootScripts} (issue) and {@link BootHttp} (redeem, check); thread-safe.
 */
final class BootTokens {
  static final int MAX = 100_000;
  static final int MAX_ENLISTING = 1_024;
  static final int PER_MAC = 4;
  private static final Duration SWEEP_EVERY = Duration.ofMinutes(1);

  private record Issued(String mac, BootPurpose purpose, Instant expires, boolean used) {}

  private final Map<String, Issued> tokens = new ConcurrentHashMap<>();
  private final Map<String, ArrayDeque<String>> byMac = new HashMap<>();
  private final ArrayDeque<String> enlisting = new ArrayDeque<>();
  private final SecureRandom random = new SecureRandom();
  private final Duration ttl;
  private final Clock clock;
  private Instant swept;

  BootTokens(Duration ttl, Clock clock) {
    this.ttl = ttl;
    this.clock = clock;
  }

  /** The clock the tokens expire by, which the plane's other limits also go by. */
  Clock clock() {
    return clock;
  }

  /**
   * Issues a token for a boot of {@code mac} for {@code purpose}, dropping the oldest of that MAC
   * (and, for an enlistment, of all enlistments) past their bound; returns null if {@value #MAX}
   * tokens are live.
   */
  synchronized String issue(String mac, BootPurpose purpose) {
    Instant now = clock.instant();
    if (swept == null || !now.isBefore(swept.plus(SWEEP_EVERY)) || tokens.size() >= MAX) {
      sweep(now);
      swept = now;
    }
    ArrayDeque<String> mine = byMac.get(mac);
    while (mine != null && mine.size() >= PER_MAC) {
      drop(mine.peekFirst());
      mine = byMac.get(mac);
    }
    while (purpose == BootPurpose.ENLIST && enlisting.size() >= MAX_ENLISTING) {
      drop(enlisting.peekFirst());
    }
    if (tokens.size() >= MAX) {
      return null;
    }
    byte[] b = new byte[32];
    random.nextBytes(b);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    tokens.put(token, new Issued(mac, purpose, now.plus(ttl), false));
    byMac.computeIfAbsent(mac, m -> new ArrayDeque<>()).addLast(token);
    if (purpose == BootPurpose.ENLIST) {
      enlisting.addLast(token);
    }
    return token;
  }

  /**
   * Redeems {@code token} for a report of {@code purpose} from {@code mac}; returns null if it is
   * good (it is then used up), else why it is refused.
   */
  String redeem(String token, String mac, BootPurpose purpose) {
    if (token == null || token.isEmpty()) {
      return "no boot token";
    }
    Issued issued = tokens.get(token);
    if (issued == null || issued.used()) {
      return "unknown or used boot token";
    }
    if (!issued.mac().equals(mac) || issued.purpose() != purpose) {
      return "the boot token was issued to another machine or purpose";
    }
    // Used up for reports; the boot's last log lines are still taken until it expires.
    if (!tokens.replace(
        token, issued, new Issued(issued.mac(), issued.purpose(), issued.expires(), true))) {
      return "unknown or used boot token";
    }
    if (!issued.expires().isAfter(clock.instant())) {
      return "the boot token has expired";
    }
    return null;
  }

  /**
   * Checks {@code token} for a boot of {@code mac} without using it up (for the boot's log lines,
   * also after its report, until it expires); returns null if it is good, else why it is refused.
   */
  String check(String token, String mac) {
    if (token == null || token.isEmpty()) {
      return "no boot token";
    }
    Issued issued = tokens.get(token);
    if (issued == null || !issued.mac().equals(mac)) {
      return "unknown boot token";
    }
    if (!issued.expires().isAfter(clock.instant())) {
      return "the boot token has expired";
    }
    return null;
  }

  /**
   * Names the boot {@code token} was issued for without giving the token away: the first 12 hex
   * digits of its SHA-256.
   */
  static String bootId(String token) {
    try {
      byte[] d =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(token.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      return java.util.HexFormat.of().formatHex(d, 0, 6);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 in the crypto module", e);
    }
  }

  int size() {
    return tokens.size();
  }

  /** Returns the tokens of enlistments kept. */
  synchronized int enlisting() {
    return enlisting.size();
  }

  private void sweep(Instant now) {
    List<String> expired = new ArrayList<>();
    for (Map.Entry<String, Issued> e : tokens.entrySet()) {
      if (!e.getValue().expires().isAfter(now)) {
        expired.add(e.getKey());
      }
    }
    expired.forEach(this::drop);
  }

  private void drop(String token) {
    Issued issued = tokens.remove(token);
    if (issued == null) {
      return;
    }
    ArrayDeque<String> mine = byMac.get(issued.mac());
    if (mine != null) {
      mine.remove(token);
      if (mine.isEmpty()) {
        byMac.remove(issued.mac());
      }
    }
    if (issued.purpose() == BootPurpose.ENLIST) {
      enlisting.remove(token);
    }
  }
}
