package io.bulwark.security.internal;

import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.CryptoModuleStatus;
import io.bulwark.lib.pki.FipsProviders;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import org.bouncycastle.crypto.CryptoServicesRegistrar;
import org.bouncycastle.crypto.fips.FipsStatus;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * Brings up the BouncyCastle FIPS module and refuses to run without it: puts BCFIPS first and
 * BCJSSE (FIPS mode) second among the security providers, checks that the power-on self-tests
 * passed and that approved-only mode is on for every thread, and makes the module's DRBG the
 * default random source of BouncyCastle's low-level API. If any check fails the component does not
 * activate, nothing that references {@link CryptoModule} starts, and the log says why.
 */
@Component(service = CryptoModule.class, immediate = true)
public final class FipsCryptoModule implements CryptoModule {
  /** The module's name as the health page shows it. */
  static final String NAME = "BouncyCastle FIPS";

  private static final Logger LOG = System.getLogger(FipsCryptoModule.class.getName());

  /**
   * BCJSSE logs every connection at INFO and warns, at every start, about entries of the JDK's
   * algorithm constraints it does not use: keep its logger (a strong reference) at SEVERE.
   */
  private static final java.util.logging.Logger BCJSSE_LOG =
      java.util.logging.Logger.getLogger("org.bouncycastle.jsse");

  private final String version;
  private final SecureRandom random;

  /**
   * Verifies the module.
   *
   * @throws IllegalStateException if the self-tests failed or approved-only mode is off (the
   *     message says which and what to do)
   */
  @Activate
  public FipsCryptoModule() {
    BCJSSE_LOG.setLevel(java.util.logging.Level.SEVERE);
    long start = System.nanoTime();
    BouncyCastleFipsProvider provider;
    try {
      provider = FipsProviders.establish();
    } catch (IllegalStateException e) {
      LOG.log(Level.ERROR, "FIPS cryptography is not available: {0}", e.getMessage());
      throw e;
    } catch (RuntimeException | Error e) {
      LOG.log(Level.ERROR, "FIPS cryptography is not available: the module failed to load", e);
      throw new IllegalStateException(
          "the FIPS module failed its self-test: " + e + "; Bulwark refuses to start", e);
    }
    ModuleReadings readings = ModuleReadings.read(provider);
    try {
      readings.requireSound();
    } catch (IllegalStateException e) {
      LOG.log(Level.ERROR, "FIPS cryptography is not available: {0}", e.getMessage());
      throw e;
    }
    this.version = readings.version();
    // The provider's own DRBG (a FipsSecureRandom) carries its security strength; a JCA wrapper
    // from SecureRandom.getInstance("DEFAULT", "BCFIPS") set here makes approved-mode key
    // generation fail its strength check.
    this.random = provider.getDefaultSecureRandom();
    CryptoServicesRegistrar.setSecureRandom(random);
    LOG.log(
        Level.INFO,
        "{0} {1} is ready in approved-only mode (self-tests passed, {2} ms); BCFIPS and BCJSSE"
            + " are the first security providers",
        NAME,
        version,
        String.valueOf((System.nanoTime() - start) / 1_000_000));
  }

  @Override
  public CryptoModuleStatus status() {
    boolean ready;
    try {
      ready = FipsStatus.isReady();
    } catch (RuntimeException | Error e) {
      ready = false;
    }
    boolean approved =
        Boolean.getBoolean(ModuleReadings.APPROVED_ONLY_PROPERTY)
            && CryptoServicesRegistrar.isInApprovedOnlyMode();
    return new CryptoModuleStatus(NAME, version, approved, ready);
  }

  @Override
  public SecureRandom random() {
    return random;
  }
}
