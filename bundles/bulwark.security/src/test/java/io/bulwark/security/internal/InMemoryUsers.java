package io.bulwark.security.internal;

import io.bulwark.api.security.UserAccount;
import io.bulwark.api.security.UserRepository;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * TEST DOUBLE for the store bundle's {@link UserRepository}: keeps the accounts in memory, sorted
 * by name; nothing is written to disk. Used by the account tests only. Thread-safe.
 */
final class InMemoryUsers implements UserRepository {
  private final Map<String, UserAccount> accounts = new TreeMap<>();

  @Override
  public synchronized List<UserAccount> users() {
    return List.copyOf(accounts.values());
  }

  @Override
  public synchronized Optional<UserAccount> user(String name) {
    return Optional.ofNullable(accounts.get(name));
  }

  @Override
  public synchronized void save(UserAccount account) {
    accounts.put(account.name(), account);
  }

  @Override
  public synchronized boolean delete(String name) {
    return accounts.remove(name) != null;
  }
}
