package io.bulwark.security.internal;

import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.TokenRepository;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.StoreMap;
import io.bulwark.api.store.WritePriority;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The API tokens (their secrets' hashes only), in the store's map {@code tokens}, written into the
 * store's reserve like the accounts.
 */
@Component(service = TokenRepository.class)
public final class StoreTokens implements TokenRepository {
  static final StoreMap<String, ApiToken> TOKENS = StoreMap.byName("tokens", TokenFormat.INSTANCE);

  private final RecordStore store;

  @Activate
  public StoreTokens(@Reference RecordStore store) {
    this.store = store;
  }

  @Override
  public List<ApiToken> tokens() {
    List<Map.Entry<String, ApiToken>> all = store.read(s -> s.map(TOKENS).entries());
    return all.stream()
        .map(Map.Entry::getValue)
        .sorted(Comparator.comparing(ApiToken::createdAt).reversed().thenComparing(ApiToken::id))
        .toList();
  }

  @Override
  public Optional<ApiToken> token(String id) {
    return Optional.ofNullable(store.read(s -> s.map(TOKENS).get(id)));
  }

  @Override
  public void save(ApiToken token) {
    store.write(
        "save API token " + token.id(),
        WritePriority.RESERVED,
        s -> {
          s.map(TOKENS).put(token.id(), token);
          return null;
        });
  }
}
