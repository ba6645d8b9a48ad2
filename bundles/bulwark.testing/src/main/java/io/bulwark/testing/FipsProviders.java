package io.bulwark.testing;

import java.security.Security;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;
import org.bouncycastle.jsse.provider.BouncyCastleJsseProvider;

/**
 * Installs the crypto providers in a test JVM as the security bundle does in the appliance: BCFIPS
 * first, BCJSSE in FIPS mode second (run the tests with {@code
 * -Dorg.bouncycastle.fips.approved_only=true}). A test that calls it needs bc-fips and bctls-fips
 * on its class path.
 *
 * @since 1.3
 */
public final class FipsProviders {
  private FipsProviders() {}

  /** Installs the providers once; later calls do nothing. */
  public static synchronized void install() {
    if (Security.getProvider("BCFIPS") == null) {
      Security.insertProviderAt(new BouncyCastleFipsProvider(), 1);
      Security.insertProviderAt(new BouncyCastleJsseProvider("fips:BCFIPS"), 2);
    }
  }
}
