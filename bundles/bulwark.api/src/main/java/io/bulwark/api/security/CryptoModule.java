package io.bulwark.api.security;

import java.security.SecureRandom;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The BouncyCastle FIPS module, verified at start: installed as the first security provider with
 * its JSSE provider second, in approved-only mode, its power-on self-tests passed. The service
 * exists only when all of that holds, so a component that references it runs on FIPS cryptography.
 * Provided by the security bundle; used by the health page and by components that need the module's
 * random bit generator. Thread-safe.
 */
@ProviderType
public interface CryptoModule {

  /** Returns the module's name, version, mode and self-test result; never null. */
  CryptoModuleStatus status();

  /**
   * Returns the module's approved deterministic random bit generator (SP 800-90A), strong enough
   * for 256-bit keys; thread-safe, never null.
   */
  SecureRandom random();
}
