package io.bulwark.security.internal;

import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.TokenRepository;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * TEST DOUBLE for the store bundle's {@link TokenRepository}: keeps the tokens in memory; nothing
 * is written to disk. Used by the account tests only. Thread-safe.
 */
final class InMemoryTokens implements TokenRepository {
  private final Map<String, ApiToken> tokens = new LinkedHashMap<>();

  @Override
  public synchronized List<ApiToken> tokens() {
    return tokens.values().stream()
        .sorted(Comparator.comparing(ApiToken::createdAt).reversed())
        .toList();
  }

  @Override
  public synchronized Optional<ApiToken> token(String id) {
    return Optional.ofNullable(tokens.get(id));
  }

  @Override
  public synchronized void save(ApiToken token) {
    tokens.put(token.id(), token);
  }
}
