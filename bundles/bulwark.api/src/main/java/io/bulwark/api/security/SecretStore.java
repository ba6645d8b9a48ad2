package io.bulwark.api.security;

import java.util.Optional;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Keeps secrets (BMC credentials, the TLS private key, the audit HMAC key, the API token pepper)
 * encrypted at rest under a data-encryption key that is sealed to the TPM. Provided by the security
 * bundle. Thread-safe. Values are returned as fresh copies: callers should clear them after use.
 */
@ProviderType
public interface SecretStore {

  /**
   * Stores {@code value} under {@code name}, replacing any earlier value; durable when this
   * returns.
   */
  void put(String name, byte[] value);

  /** Returns the secret stored under {@code name}, or empty. */
  Optional<byte[]> get(String name);

  /** Removes the secret stored under {@code name}, if any. */
  void remove(String name);

  /**
   * Returns true if the data-encryption key is sealed to a TPM; false in the flagged development
   * mode.
   */
  boolean sealedToTpm();
}
