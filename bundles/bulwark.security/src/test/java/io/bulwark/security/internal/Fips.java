package io.bulwark.security.internal;

/**
 * The FIPS module of the test JVM, brought up once (as the appliance does at start) and shared by
 * the tests: provider order, approved-only mode and the DRBG are JVM-wide.
 */
final class Fips {
  private static FipsCryptoModule module;

  private Fips() {}

  /** Returns the module, activating it on first use. */
  static synchronized FipsCryptoModule module() {
    if (module == null) {
      module = new FipsCryptoModule();
    }
    return module;
  }
}
