package io.bulwark.api.security;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Seals a small secret (the data-encryption key) so that only this machine can unseal it: to a TPM
 * 2.0, optionally bound to PCRs. Provided by the TPM bundle; used by the secret store. Thread-safe;
 * calls may block on the TPM.
 */
@ProviderType
public interface KeySealer {

  /**
   * Returns an opaque blob holding {@code secret} sealed; it can be written to disk.
   *
   * @throws IllegalStateException if the TPM refuses or cannot be reached (the message says which
   *     and why)
   */
  byte[] seal(byte[] secret);

  /**
   * Returns the secret sealed in {@code blob}.
   *
   * @throws IllegalStateException if the TPM refuses: another TPM, a changed PCR policy, or a
   *     damaged blob
   */
  byte[] unseal(byte[] blob);

  /**
   * Describes what the secret is sealed to, for logs and the health page, e.g. "TPM 2.0 (swtpm),
   * PCRs 0,7".
   */
  String description();
}
