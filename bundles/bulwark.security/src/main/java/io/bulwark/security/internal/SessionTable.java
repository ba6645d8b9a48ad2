package io.bulwark.security.internal;

import io.bulwark.api.security.Role;
import io.bulwark.api.security.Session;
import io.bulwark.api.security.UserAccount;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open browser sessions, in memory only (a restart logs everybody out): opens sessions with
 * random ids and CSRF tokens, refreshes them on use and ends those idle too long. Thread-safe.
 */
final class SessionTable {
  private static final int RANDOM_BYTES = 32;
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final SecureRandom random;
  private final Duration idle;
  private final Duration adminIdle;

  /** Sessions that end after {@code idle} without use, an admin's after {@code adminIdle}. */
  SessionTable(SecureRandom random, Duration idle, Duration adminIdle) {
    this.random = random;
    this.idle = idle;
    this.adminIdle = adminIdle;
  }

  /** Opens a session for {@code account} at {@code now}. */
  Session open(UserAccount account, Instant now) {
    while (true) {
      Session session =
          new Session(
              randomText(),
              account.name(),
              account.role(),
              randomText(),
              account.mustChangePassword(),
              now,
              now);
      if (sessions.putIfAbsent(session.id(), session) == null) {
        return session;
      }
    }
  }

  /**
   * Returns the session marked used at {@code now}, {@link Lookup#expired} if it was idle too long
   * (it is then removed), or {@link Lookup#none} if there is no such session.
   */
  Lookup use(String id, Instant now) {
    if (id == null) {
      return Lookup.none();
    }
    Session[] expired = new Session[1];
    Session used =
        sessions.computeIfPresent(
            id,
            (key, session) -> {
              if (idleAt(session, now)) {
                expired[0] = session;
                return null;
              }
              return withLastUse(session, now);
            });
    if (expired[0] != null) {
      return new Lookup(Optional.empty(), Optional.of(expired[0]));
    }
    return new Lookup(Optional.ofNullable(used), Optional.empty());
  }

  /** Removes and returns the sessions that are idle at {@code now}. */
  List<Session> removeIdle(Instant now) {
    List<Session> removed = new ArrayList<>();
    for (Session session : sessions.values()) {
      if (idleAt(session, now) && sessions.remove(session.id(), session)) {
        removed.add(session);
      }
    }
    return removed;
  }

  /** Removes and returns the session with this id. */
  Optional<Session> remove(String id) {
    return id == null ? Optional.empty() : Optional.ofNullable(sessions.remove(id));
  }

  /** Removes every session of {@code user}; returns how many there were. */
  int removeUser(String user) {
    int[] count = new int[1];
    sessions
        .values()
        .removeIf(
            s -> {
              boolean match = s.user().equals(user);
              count[0] += match ? 1 : 0;
              return match;
            });
    return count[0];
  }

  /**
   * Ends every session of {@code user} but {@code keep} (which may be null), and marks {@code keep}
   * as no longer needing a password change: after a password change only the session that made it
   * stays open. Returns the sessions ended.
   */
  List<Session> passwordChanged(String user, String keep) {
    List<Session> ended = new ArrayList<>();
    sessions
        .values()
        .removeIf(
            s -> {
              boolean end = s.user().equals(user) && !s.id().equals(keep);
              if (end) {
                ended.add(s);
              }
              return end;
            });
    if (keep != null) {
      sessions.computeIfPresent(
          keep,
          (id, s) ->
              new Session(
                  s.id(), s.user(), s.role(), s.csrfToken(), false, s.createdAt(), s.lastUsedAt()));
    }
    return ended;
  }

  private boolean idleAt(Session session, Instant now) {
    return !now.isBefore(
        session.lastUsedAt().plus(session.role() == Role.ADMIN ? adminIdle : idle));
  }

  private static Session withLastUse(Session s, Instant now) {
    Instant last = now.isAfter(s.lastUsedAt()) ? now : s.lastUsedAt();
    return new Session(
        s.id(), s.user(), s.role(), s.csrfToken(), s.mustChangePassword(), s.createdAt(), last);
  }

  private String randomText() {
    byte[] bytes = new byte[RANDOM_BYTES];
    random.nextBytes(bytes);
    return BASE64URL.encodeToString(bytes);
  }

  /** The result of a lookup: the live session, or the session that just expired, or neither. */
  record Lookup(Optional<Session> live, Optional<Session> expired) {
    static Lookup none() {
      return new Lookup(Optional.empty(), Optional.empty());
    }
  }
}
