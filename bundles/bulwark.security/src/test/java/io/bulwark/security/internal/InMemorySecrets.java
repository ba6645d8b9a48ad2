package io.bulwark.security.internal;

import io.bulwark.api.security.SecretStore;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * TEST DOUBLE for {@link SecretStore}: keeps secrets in memory, unencrypted; protects nothing. Used
 * by the account tests only. Thread-safe.
 */
final class InMemorySecrets implements SecretStore {
  private final Map<String, byte[]> secrets = new HashMap<>();

  @Override
  public synchronized void put(String name, byte[] value) {
    secrets.put(name, value.clone());
  }

  @Override
  public synchronized Optional<byte[]> get(String name) {
    return Optional.ofNullable(secrets.get(name)).map(v -> Arrays.copyOf(v, v.length));
  }

  @Override
  public synchronized void remove(String name) {
    secrets.remove(name);
  }

  @Override
  public boolean sealedToTpm() {
    return false;
  }
}
