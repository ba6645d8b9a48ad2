package io.bulwark.pxe.internal;

import io.bulwark.api.provisioning.BootPurpose;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One-time tokens that let a machine's boot environment report back: issued with the iPXE script of
 * one boot, for that MAC and purpose, redeemed once, refused after use or expiry. 256 bits from the
 * JVM's default {@link SecureRandom} (the FIPS DRBG on the appliance). Kept in memory: a restart of
 * the appliance voids them, and the machine's state timeout then fails it.
 */
final class BootTokens {
  static final int MAX = 100_000;

  private record Issued(String mac, BootPurpose purpose, Instant expires, boolean used) {}

  private final Map<String, Issued> tokens = new ConcurrentHashMap<>();
  private final SecureRandom random = new SecureRandom();
  private final Duration ttl;
  private final Clock clock;

  BootTokens(Duration ttl, Clock clock) {
    this.ttl = ttl;
    this.clock = clock;
  }

  String issue(String mac, BootPurpose purpose) {
    Instant now = clock.instant();
    if (tokens.size() >= MAX) {
      sweep(now);
    }
    byte[] b = new byte[32];
    random.nextBytes(b);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    tokens.put(token, new Issued(mac, purpose, now.plus(ttl), false));
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

  private void sweep(Instant now) {
    for (Iterator<Issued> it = tokens.values().iterator(); it.hasNext(); ) {
      if (!it.next().expires().isAfter(now)) {
        it.remove();
      }
    }
  }
}
