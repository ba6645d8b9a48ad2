package io.bulwark.security.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lockout of one address for one account: {@code lockoutAttempts} wrong passwords for a user
 * from one address within the lockout window lock that address out of that account for the lockout
 * time, before any password is hashed; other addresses, and the appliance's own console, can still
 * log in. So whoever guesses from one place cannot lock the administrator out everywhere (the
 * account-wide lock, {@link LoginFailures}, needs failures from several addresses). Kept in memory:
 * a restart forgets it. Thread-safe.
 */
final class SourceLockouts {
  /** Pairs of user and address remembered at most; the oldest are forgotten first. */
  static final int MAX_REMEMBERED = 16_384;

  private final AccountsOptions options;
  private final Map<String, Entry> entries =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
          return size() > MAX_REMEMBERED;
        }
      };

  SourceLockouts(AccountsOptions options) {
    this.options = options;
  }

  /** Returns until when {@code source} is locked out of {@code user}, or null if it is not. */
  synchronized Instant lockedUntil(String user, String source, Instant now) {
    Entry e = entries.get(key(user, source));
    return e != null && e.lockedUntil != null && now.isBefore(e.lockedUntil) ? e.lockedUntil : null;
  }

  /** Records a wrong password; returns until when the address is now locked out, or null. */
  synchronized Instant failed(String user, String source, Instant now) {
    Entry e = entries.computeIfAbsent(key(user, source), k -> new Entry());
    Instant windowStart = now.minus(options.lockoutWindow());
    e.failures.removeIf(f -> !f.isAfter(windowStart));
    e.failures.add(now);
    if (e.failures.size() >= options.lockoutAttempts()) {
      e.failures.clear();
      e.lockedUntil = now.plus(options.lockout());
      return e.lockedUntil;
    }
    return null;
  }

  /** Forgets the failures of {@code source} for {@code user} (a successful login). */
  synchronized void succeeded(String user, String source) {
    entries.remove(key(user, source));
  }

  /** Forgets every lock of {@code user} (an administrator unlocked the account). */
  synchronized void unlock(String user) {
    entries.keySet().removeIf(k -> k.startsWith(user + "\n"));
  }

  /**
   * Returns true for the appliance's own console: 127.0.0.1, ::1, or "local" (the rest of 127/8 is
   * not the console: any local process can use those).
   */
  static boolean isConsole(String source) {
    return source != null
        && (source.equals("local")
            || source.equals("127.0.0.1")
            || source.equals("::1")
            || source.equals("0:0:0:0:0:0:0:1"));
  }

  private static String key(String user, String source) {
    return user + "\n" + source;
  }

  private static final class Entry {
    final List<Instant> failures = new ArrayList<>(4);
    Instant lockedUntil;
  }
}
