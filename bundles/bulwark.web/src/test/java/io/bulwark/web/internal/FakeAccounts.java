package io.bulwark.web.internal;

import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.AuthenticationException;
import io.bulwark.api.security.IssuedToken;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.Session;
import io.bulwark.api.security.UserAccount;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Internal test double of the accounts service (the real one, with PBKDF2 and lockout, is tested in
 * bulwark.security): fixed API tokens per role ("admin-token", "operator-token", "auditor-token"),
 * users "admin" and "fresh" (who must change the password), password {@link #PASSWORD}.
 */
final class FakeAccounts implements Accounts {
  static final String PASSWORD = "Correct-Horse-Battery-9";

  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private io.bulwark.api.security.UserRepository users;
  private io.bulwark.api.audit.AuditLog audit;

  /** Gives the fake the fixture's users and audit log, for the calls that use them. */
  FakeAccounts use(
      io.bulwark.api.security.UserRepository users, io.bulwark.api.audit.AuditLog audit) {
    this.users = users;
    this.audit = audit;
    return this;
  }

  private final Map<String, Principal> tokens =
      new ConcurrentHashMap<>(
          Map.of(
              "admin-token", new Principal("tok-admin", Role.ADMIN, Principal.Kind.TOKEN),
              "operator-token", new Principal("tok-operator", Role.OPERATOR, Principal.Kind.TOKEN),
              "auditor-token", new Principal("tok-auditor", Role.AUDITOR, Principal.Kind.TOKEN)));
  private int sequence;

  @Override
  public Optional<char[]> bootstrapAdmin(Optional<char[]> installerPassword) {
    return Optional.empty();
  }

  /** While true, a login fails as it does while the store is not running (503). */
  volatile boolean storeDown;

  @Override
  public synchronized Session login(String user, char[] password, String source) {
    if (storeDown) {
      throw new io.bulwark.api.store.StoreUnavailableException(
          "the store is not running: retry in a few seconds", null);
    }
    boolean known = user.equals("admin") || user.equals("fresh");
    if (!known || !Arrays.equals(password, PASSWORD.toCharArray())) {
      throw new AuthenticationException("wrong password for " + user);
    }
    sequence++;
    Session s =
        new Session(
            "session-" + sequence,
            user,
            Role.ADMIN,
            "csrf-" + sequence,
            user.equals("fresh"),
            Instant.now(),
            Instant.now());
    sessions.put(s.id(), s);
    return s;
  }

  @Override
  public Optional<Session> session(String id) {
    return Optional.ofNullable(sessions.get(id));
  }

  @Override
  public boolean logout(String id, String source) {
    return sessions.remove(id) != null;
  }

  @Override
  public void changePassword(String user, char[] current, char[] next, String source) {
    changePassword(user, current, next, source, null);
  }

  @Override
  public void changePassword(
      String user, char[] current, char[] next, String source, String keepSession) {
    if (!Arrays.equals(current, PASSWORD.toCharArray())) {
      throw new AuthenticationException("wrong current password");
    }
    if (next.length < 15) {
      throw new IllegalArgumentException("the new password needs at least 15 characters");
    }
    sessions.values().removeIf(s -> s.user().equals(user) && !s.id().equals(keepSession));
    sessions.replaceAll(
        (id, s) ->
            s.user().equals(user)
                ? new Session(
                    s.id(), s.user(), s.role(), s.csrfToken(), false, s.createdAt(), s.lastUsedAt())
                : s);
  }

  @Override
  public Optional<UserAccount> unlockUser(String actor, String name, String source) {
    Optional<UserAccount> found = users.user(name);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    audit.append(
        new io.bulwark.api.audit.AuditEvent(
            actor,
            source,
            "user.unlock",
            name,
            io.bulwark.api.audit.AuditOutcome.SUCCESS,
            Map.of()));
    UserAccount u = found.get();
    UserAccount unlocked =
        new UserAccount(
            u.name(),
            u.role(),
            u.passwordHash(),
            u.mustChangePassword(),
            u.passwordChangedAt(),
            java.util.List.of(),
            null,
            u.disabled());
    users.save(unlocked);
    return Optional.of(unlocked);
  }

  @Override
  public UserAccount createUser(
      String actor, String name, Role role, char[] initialPassword, String source) {
    if (initialPassword.length < 15) {
      throw new IllegalArgumentException("the password needs at least 15 characters");
    }
    return new UserAccount(
        name, role, "hash", true, Instant.now(), java.util.List.of(), null, false);
  }

  @Override
  public boolean deleteUser(String actor, String name, String source) {
    return false;
  }

  @Override
  public IssuedToken createToken(
      String actor, String name, Role role, Duration validity, String source) {
    String id = "tok-" + name;
    String token = "bwk_" + id + "_secret";
    tokens.put(token, new Principal(id, role, Principal.Kind.TOKEN));
    Instant now = Instant.now();
    return new IssuedToken(
        token, new ApiToken(id, name, role, "hmac$x", actor, now, now.plus(validity), false));
  }

  @Override
  public Optional<Principal> authenticateToken(String bearer) {
    return Optional.ofNullable(tokens.get(bearer));
  }

  @Override
  public boolean revokeToken(String actor, String id, String source) {
    return tokens.values().removeIf(p -> p.name().equals(id));
  }
}
