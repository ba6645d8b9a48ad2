package io.bulwark.api.security;

import java.util.List;
import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The persistent API tokens. Provided by the store; used by the security bundle. Thread-safe; a
 * write is durable when it returns.
 */
@ProviderType
public interface TokenRepository {

  /** Returns every token, newest first. */
  List<ApiToken> tokens();

  /** Returns the token with this id, or empty. */
  Optional<ApiToken> token(String id);

  /** Inserts or replaces the token with {@code token.id()}. */
  void save(ApiToken token);
}
