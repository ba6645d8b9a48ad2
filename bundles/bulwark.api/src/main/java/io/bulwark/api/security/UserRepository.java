package io.bulwark.api.security;

import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The persistent local accounts. Provided by the store; used by the security bundle. Thread-safe; a
 * write is durable when it returns.
 */
@ProviderType
public interface UserRepository {

  /** Returns every account, sorted by name. */
  List<UserAccount> users();

  /** Returns the account with this name, or empty. */
  Optional<UserAccount> user(String name);

  /** Inserts or replaces the account with {@code account.name()}. */
  void save(UserAccount account);

  /** Removes the account; returns false if there was none. */
  boolean delete(String name);
}
