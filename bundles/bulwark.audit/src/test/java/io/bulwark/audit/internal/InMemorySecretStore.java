package io.bulwark.audit.internal;

import io.bulwark.api.security.SecretStore;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test double for the security bundle's {@link SecretStore}: keeps secrets in memory, unencrypted,
 * for unit tests only (never shipped). {@link #refuse} makes every call fail, as a store whose TPM
 * is unreachable would.
 */
final class InMemorySecretStore implements SecretStore {
  private final Map<String, byte[]> secrets = new ConcurrentHashMap<>();
  private volatile boolean refusing;

  static InMemorySecretStore with(String name, byte[] value) {
    InMemorySecretStore store = new InMemorySecretStore();
    store.put(name, value);
    return store;
  }

  void refuse(boolean refusing) {
    this.refusing = refusing;
  }

  @Override
  public void put(String name, byte[] value) {
    check();
    secrets.put(name, value.clone());
  }

  @Override
  public Optional<byte[]> get(String name) {
    check();
    return Optional.ofNullable(secrets.get(name)).map(byte[]::clone);
  }

  @Override
  public void remove(String name) {
    check();
    secrets.remove(name);
  }

  @Override
  public boolean sealedToTpm() {
    return false;
  }

  private void check() {
    if (refusing) {
      throw new IllegalStateException("TPM not reachable (test double refusing)");
    }
  }
}
