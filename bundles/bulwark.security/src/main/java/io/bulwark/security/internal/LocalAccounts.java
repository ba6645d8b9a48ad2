package io.bulwark.security.internal;

import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.IssuedToken;
import io.bulwark.api.security.PasswordHasher;
import io.bulwark.api.security.PasswordPolicy;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.SecretStore;
import io.bulwark.api.security.Session;
import io.bulwark.api.security.TokenRepository;
import io.bulwark.api.security.UserAccount;
import io.bulwark.api.security.UserRepository;
import io.bulwark.api.store.StoreUnavailableException;
import io.bulwark.api.system.SteadyClock;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The appliance's local accounts on top of the store's user and token repositories: passwords and
 * lockout checked by {@link PasswordCheck}, sessions kept in a {@link SessionTable}, API tokens
 * handled by {@link ApiTokens}, and every change recorded by the {@link AuditTrail} before it takes
 * effect. The repositories and the audit log are bound dynamically, so that updating the store or
 * the audit bundle ends no session: meanwhile what needs them is refused as the store or the audit
 * log refuses (503), and tokens already used are recognised from memory.
 */
@Component(
    service = Accounts.class,
    configurationPid = LocalAccounts.PID,
    configurationPolicy = ConfigurationPolicy.OPTIONAL)
@Designate(ocd = AccountsConfig.class)
public final class LocalAccounts implements Accounts {
  /** The configuration PID. */
  public static final String PID = "io.bulwark.security.accounts";

  /** The policy every new password meets (the compliance check probes this one). */
  static final PasswordPolicy POLICY = PasswordPolicy.standard();

  private final UserRepository users;
  private final PasswordHasher hasher;
  private final AuditTrail audit;
  private final Clock clock;
  private final PasswordCheck passwords;
  private final FirstAdministrator firstAdministrator;
  private final SessionTable sessions;
  private final ApiTokens tokens;
  private final SourceLockouts sources;
  private final ReentrantLock accountsLock = new ReentrantLock();
  private Bindings bindings;

  /**
   * Reads the configuration.
   *
   * @throws IllegalArgumentException if a property is out of range (the message names it)
   */
  @Activate
  public LocalAccounts(
      @Reference PasswordHasher hasher,
      @Reference SecretStore secrets,
      @Reference CryptoModule crypto,
      AccountsConfig config) {
    this(
        new Bindings(),
        hasher,
        secrets,
        crypto,
        AccountsOptions.from(config),
        SteadyClock.system(), // idle sessions and lockouts survive a step of the wall clock
        inBackground(() -> dummyHash(hasher, crypto)));
  }

  /**
   * Returns a value worked out on a thread of its own, so that a password hash made at activation
   * (about half a second of one core) does not hold up the start of the bundles after this one; the
   * first login that needs it waits for it.
   */
  private static Supplier<String> inBackground(Supplier<String> work) {
    CompletableFuture<String> value = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                value.complete(work.get());
              } catch (RuntimeException e) {
                value.completeExceptionally(e);
              }
            },
            "bulwark-accounts-dummy-hash");
    t.setDaemon(true);
    t.start();
    return value::join;
  }

  private LocalAccounts(
      Bindings bindings,
      PasswordHasher hasher,
      SecretStore secrets,
      CryptoModule crypto,
      AccountsOptions options,
      Clock clock,
      Supplier<String> dummyHash) {
    this(
        bindings.users.proxy(),
        bindings.tokens.proxy(),
        hasher,
        secrets,
        bindings.audit.proxy(),
        crypto,
        options,
        clock,
        dummyHash);
    this.bindings = bindings;
  }

  /**
   * Returns accounts whose repositories and audit log are bound later, through the bind methods, as
   * the framework binds them.
   */
  static LocalAccounts unbound(
      PasswordHasher hasher,
      SecretStore secrets,
      CryptoModule crypto,
      AccountsOptions options,
      Clock clock,
      String dummyHash) {
    return new LocalAccounts(
        new Bindings(), hasher, secrets, crypto, options, clock, () -> dummyHash);
  }

  /** The services bound dynamically, behind the stand-ins the parts of this component hold. */
  private static final class Bindings {
    final ServiceProxy<UserRepository> users =
        ServiceProxy.of(UserRepository.class, LocalAccounts::storeMissing);
    final ServiceProxy<TokenRepository> tokens =
        ServiceProxy.of(TokenRepository.class, LocalAccounts::storeMissing);
    final ServiceProxy<AuditLog> audit =
        ServiceProxy.of(
            AuditLog.class,
            () ->
                new AuditUnavailableException(
                    "the audit log is not running (its bundle is being updated or stopped)", null));
  }

  private static StoreUnavailableException storeMissing() {
    return new StoreUnavailableException(
        "the store is not running (its bundle is being updated or stopped); nothing was changed,"
            + " retry in a few seconds",
        null);
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindUsers")
  void bindUsers(UserRepository repository) {
    bindings.users.bind(repository);
  }

  void unbindUsers(UserRepository repository) {
    bindings.users.unbind(repository);
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindTokens")
  void bindTokens(TokenRepository repository) {
    bindings.tokens.bind(repository);
  }

  void unbindTokens(TokenRepository repository) {
    bindings.tokens.unbind(repository);
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindAudit")
  void bindAudit(AuditLog log) {
    bindings.audit.bind(log);
  }

  void unbindAudit(AuditLog log) {
    bindings.audit.unbind(log);
  }

  LocalAccounts(
      UserRepository users,
      TokenRepository tokens,
      PasswordHasher hasher,
      SecretStore secrets,
      AuditLog audit,
      CryptoModule crypto,
      AccountsOptions options,
      Clock clock,
      String dummyHash) {
    this(users, tokens, hasher, secrets, audit, crypto, options, clock, () -> dummyHash);
  }

  private LocalAccounts(
      UserRepository users,
      TokenRepository tokens,
      PasswordHasher hasher,
      SecretStore secrets,
      AuditLog audit,
      CryptoModule crypto,
      AccountsOptions options,
      Clock clock,
      Supplier<String> dummyHash) {
    this.users = users;
    this.hasher = hasher;
    this.audit = new AuditTrail(audit);
    this.clock = clock;
    this.sessions =
        new SessionTable(crypto.random(), options.sessionIdle(), options.adminSessionIdle());
    this.tokens =
        new ApiTokens(
            tokens,
            new TokenPepper(secrets, crypto.random()),
            this.audit,
            crypto.random(),
            clock,
            options.tokenMaxValidity());
    this.firstAdministrator =
        new FirstAdministrator(users, hasher, this.audit, crypto.random(), clock, accountsLock);
    this.sources = new SourceLockouts(options);
    this.passwords =
        new PasswordCheck(
            users,
            hasher,
            new LoginFailures(options),
            sources,
            this.audit,
            clock,
            accountsLock,
            dummyHash);
  }

  /**
   * Returns the hash of a random password that no one knows: unknown users are checked against it,
   * so that they cost as much as known ones.
   */
  static String dummyHash(PasswordHasher hasher, CryptoModule crypto) {
    char[] password = GeneratedPassword.forUser(FirstAdministrator.NAME, crypto.random(), POLICY);
    try {
      return hasher.hash(password);
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  @Override
  public Optional<char[]> bootstrapAdmin(Optional<char[]> installerPassword) {
    return firstAdministrator.create(installerPassword);
  }

  @Override
  public Session login(String user, char[] password, String source) {
    for (Session idle : sessions.removeIdle(clock.instant())) {
      recordExpiry(idle);
    }
    UserAccount account = passwords.check(user, password, source, "session.login");
    // A login the audit log cannot record is refused with AuditUnavailableException (the caller
    // answers 503 and says why), never as a wrong password.
    audit.record(
        account.name(), source, "session.login", account.name(), AuditOutcome.SUCCESS, Map.of());
    passwords.succeeded(account.name(), source);
    UserAccount after = LoginFailures.cleared(account);
    if (hasher.needsRehash(account.passwordHash())) {
      after = withPassword(after, hasher.hash(password), after.mustChangePassword(), clock);
    }
    users.save(after);
    return sessions.open(after, clock.instant());
  }

  @Override
  public Optional<Session> session(String id) {
    SessionTable.Lookup lookup = sessions.use(id, clock.instant());
    lookup.expired().ifPresent(this::recordExpiry);
    return lookup.live();
  }

  @Override
  public boolean logout(String id, String source) {
    Optional<Session> ended = sessions.remove(id);
    ended.ifPresent(
        s ->
            audit.record(
                s.user(), source, "session.logout", s.user(), AuditOutcome.SUCCESS, Map.of()));
    return ended.isPresent();
  }

  @Override
  public void changePassword(String user, char[] current, char[] next, String source) {
    changePassword(user, current, next, source, null);
  }

  @Override
  public void changePassword(
      String user, char[] current, char[] next, String source, String keepSession) {
    UserAccount account = passwords.check(user, current, source, "password.change");
    List<String> problems = POLICY.problems(account.name(), next);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "The new password is refused: " + String.join(" ", problems));
    }
    if (sameChars(current, next)) {
      throw new IllegalArgumentException(
          "The new password is refused: it must differ from the current one.");
    }
    String hash = hasher.hash(next);
    audit.record(
        account.name(), source, "password.change", account.name(), AuditOutcome.SUCCESS, Map.of());
    users.save(withPassword(LoginFailures.cleared(account), hash, false, clock));
    for (Session ended : sessions.passwordChanged(account.name(), keepSession)) {
      audit.tryRecord(
          ended.user(),
          source,
          "session.ended",
          ended.user(),
          AuditOutcome.SUCCESS,
          Map.of("reason", "the password was changed"));
    }
  }

  @Override
  public UserAccount createUser(
      String actor, String name, Role role, char[] initialPassword, String source) {
    if (!UserAccount.isValidName(name)) {
      throw new IllegalArgumentException(
          "not a valid user name (2-32 of a-z, 0-9, '.', '_', '-', starting with a letter)");
    }
    List<String> problems = POLICY.problems(name, initialPassword);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          "The initial password is refused: " + String.join(" ", problems));
    }
    UserAccount account = newAccount(name, role, initialPassword, true);
    accountsLock.lock();
    try {
      if (users.user(name).isPresent()) {
        throw new IllegalArgumentException("a user named " + name + " already exists");
      }
      audit.record(
          actor, source, "user.create", name, AuditOutcome.SUCCESS, Map.of("role", role.name()));
      users.save(account);
      return account;
    } finally {
      accountsLock.unlock();
    }
  }

  @Override
  public Optional<UserAccount> unlockUser(String actor, String name, String source) {
    accountsLock.lock();
    try {
      Optional<UserAccount> found = name == null ? Optional.empty() : users.user(name);
      if (found.isEmpty()) {
        return Optional.empty();
      }
      UserAccount u = found.get();
      audit.record(
          actor,
          source,
          "user.unlock",
          name,
          AuditOutcome.SUCCESS,
          Map.of("wasLocked", Boolean.toString(u.lockedAt(clock.instant()))));
      UserAccount unlocked = LoginFailures.cleared(u);
      users.save(unlocked);
      sources.unlock(name);
      return Optional.of(unlocked);
    } finally {
      accountsLock.unlock();
    }
  }

  @Override
  public boolean deleteUser(String actor, String name, String source) {
    accountsLock.lock();
    try {
      Optional<UserAccount> account = name == null ? Optional.empty() : users.user(name);
      if (account.isEmpty()) {
        return false;
      }
      boolean lastAdmin =
          account.get().role() == Role.ADMIN
              && users.users().stream().filter(u -> u.role() == Role.ADMIN).count() <= 1;
      if (lastAdmin) {
        throw new IllegalStateException(
            "cannot delete " + name + ": it is the last administrator; create another first");
      }
      audit.record(
          actor,
          source,
          "user.delete",
          name,
          AuditOutcome.SUCCESS,
          Map.of("role", account.get().role().name()));
      users.delete(name);
      sessions.removeUser(name);
      tokens.revokeCreatedBy(actor, name, source, "its creator " + name + " was deleted");
      return true;
    } finally {
      accountsLock.unlock();
    }
  }

  @Override
  public IssuedToken createToken(
      String actor, String name, Role role, Duration validity, String source) {
    return tokens.create(actor, name, role, validity, source);
  }

  @Override
  public Optional<Principal> authenticateToken(String bearer) {
    return tokens.authenticate(bearer);
  }

  @Override
  public boolean revokeToken(String actor, String id, String source) {
    return tokens.revoke(actor, id, source);
  }

  private void recordExpiry(Session session) {
    audit.tryRecord(
        session.user(),
        "local",
        "session.expired",
        session.user(),
        AuditOutcome.SUCCESS,
        Map.of("lastUsedAt", session.lastUsedAt().toString()));
  }

  private UserAccount newAccount(String name, Role role, char[] password, boolean mustChange) {
    return new UserAccount(
        name, role, hasher.hash(password), mustChange, clock.instant(), List.of(), null, false);
  }

  private static UserAccount withPassword(
      UserAccount a, String hash, boolean mustChange, Clock clock) {
    return new UserAccount(
        a.name(),
        a.role(),
        hash,
        mustChange,
        clock.instant(),
        a.recentFailures(),
        a.lockedUntil(),
        a.disabled());
  }

  private static boolean sameChars(char[] a, char[] b) {
    if (a == null || b == null || a.length != b.length) {
      return false;
    }
    int difference = 0;
    for (int i = 0; i < a.length; i++) {
      difference |= a[i] ^ b[i];
    }
    return difference == 0;
  }
}
