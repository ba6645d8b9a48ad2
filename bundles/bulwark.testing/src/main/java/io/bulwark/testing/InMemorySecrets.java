package io.bulwark.testing;

import io.bulwark.api.security.SecretStore;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * TEST DOUBLE for {@link SecretStore}: keeps secrets in memory, unencrypted; protects nothing. For
 * the unit tests of bundles that keep credentials (the sealed store itself is tested with a real
 * software TPM). Thread-safe.
 *
 * @since 1.3
 */
public final class InMemorySecrets implements SecretStore {
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

  /** Returns the names of the secrets kept. */
  public synchronized Set<String> names() {
    return Set.copyOf(secrets.keySet());
  }

  @Override
  public boolean sealedToTpm() {
    return false;
  }
}
