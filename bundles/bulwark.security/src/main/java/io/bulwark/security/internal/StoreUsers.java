package io.bulwark.security.internal;

import io.bulwark.api.security.UserAccount;
import io.bulwark.api.security.UserRepository;
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
 * The local accounts, in the store's map {@code users}. Written into the store's reserve: a login
 * records the account (its failures, its lock), and an administrator must be able to log in on a
 * disk that refuses routine writes.
 */
@Component(service = UserRepository.class)
public final class StoreUsers implements UserRepository {
  static final StoreMap<String, UserAccount> USERS =
      StoreMap.byName("users", AccountFormat.INSTANCE);

  private final RecordStore store;

  @Activate
  public StoreUsers(@Reference RecordStore store) {
    this.store = store;
  }

  @Override
  public List<UserAccount> users() {
    List<Map.Entry<String, UserAccount>> all = store.read(s -> s.map(USERS).entries());
    return all.stream()
        .map(Map.Entry::getValue)
        .sorted(Comparator.comparing(UserAccount::name))
        .toList();
  }

  @Override
  public Optional<UserAccount> user(String name) {
    return Optional.ofNullable(store.read(s -> s.map(USERS).get(name)));
  }

  @Override
  public void save(UserAccount account) {
    store.write(
        "save the account " + account.name(),
        WritePriority.RESERVED,
        s -> {
          s.map(USERS).put(account.name(), account);
          return null;
        });
  }

  @Override
  public boolean delete(String name) {
    return store.write(
        "delete the account " + name, WritePriority.RESERVED, s -> s.map(USERS).remove(name));
  }
}
