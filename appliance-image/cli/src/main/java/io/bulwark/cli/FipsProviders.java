package io.bulwark.cli;

import java.security.GeneralSecurityException;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.Security;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.bouncycastle.crypto.CryptoServicesRegistrar;
import org.bouncycastle.crypto.fips.FipsStatus;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;
import org.bouncycastle.jsse.provider.BouncyCastleJsseProvider;

/**
 * The BouncyCastle FIPS providers, installed as the appliance installs them: BCFIPS first and
 * BCJSSE in FIPS mode second, in approved-only mode. The client refuses to connect without them.
 */
final class FipsProviders {
  /** The system property that puts the FIPS module in approved-only mode when it loads. */
  static final String APPROVED_ONLY_PROPERTY = "org.bouncycastle.fips.approved_only";

  /** BCJSSE logs every connection at INFO; keep its logger (a strong reference) at SEVERE. */
  private static final Logger BCJSSE_LOG = Logger.getLogger("org.bouncycastle.jsse");

  private FipsProviders() {}

  /**
   * Installs the providers if they are not yet, and returns the module's DRBG.
   *
   * @throws GeneralSecurityException if the module is missing, is not in approved-only mode or
   *     failed its self-tests (the message says which)
   */
  static synchronized SecureRandom install() throws GeneralSecurityException {
    try {
      return installProviders();
    } catch (LinkageError e) {
      throw new GeneralSecurityException(
          "the BouncyCastle FIPS jars cannot be loaded ("
              + e
              + "); keep the lib folder beside bulwark-cli.jar",
          e);
    } catch (IllegalStateException e) {
      throw new GeneralSecurityException(e.getMessage(), e);
    } catch (RuntimeException | Error e) {
      throw new GeneralSecurityException("the FIPS module failed to start: " + e, e);
    }
  }

  private static SecureRandom installProviders() {
    BCJSSE_LOG.setLevel(Level.SEVERE);
    Provider fips = Security.getProvider("BCFIPS");
    if (fips == null) {
      fips = new BouncyCastleFipsProvider();
      Security.insertProviderAt(fips, 1);
    }
    if (Security.getProvider("BCJSSE") == null) {
      Security.insertProviderAt(new BouncyCastleJsseProvider("fips:BCFIPS"), 2);
    }
    if (!(Security.getProvider("BCJSSE") instanceof BouncyCastleJsseProvider jsse)
        || !jsse.isFipsMode()) {
      throw new IllegalStateException("the BCJSSE provider is not in FIPS mode");
    }
    if (!FipsStatus.isReady()) {
      throw new IllegalStateException(
          "the FIPS module is not ready: " + FipsStatus.getStatusMessage());
    }
    if (!CryptoServicesRegistrar.isInApprovedOnlyMode()) {
      throw new IllegalStateException(
          "the FIPS module is not in approved-only mode (set -D"
              + APPROVED_ONLY_PROPERTY
              + "=true before it loads)");
    }
    return ((BouncyCastleFipsProvider) fips).getDefaultSecureRandom();
  }
}
