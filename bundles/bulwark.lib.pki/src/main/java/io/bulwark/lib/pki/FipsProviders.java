package io.bulwark.lib.pki;

import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;
import org.bouncycastle.jsse.provider.BouncyCastleJsseProvider;

/**
 * Puts the JVM's security providers in the order FIPS operation needs: BouncyCastle FIPS ({@code
 * BCFIPS}) first and its JSSE provider in FIPS mode ({@code BCJSSE}, configured {@code
 * fips:BCFIPS}) second, installing them if absent and moving them if a launcher installed them
 * elsewhere. Called once at start by each role's crypto module (the appliance's and the node
 * agent's) before any other use of the module.
 */
public final class FipsProviders {
  private static final Object LOCK = new Object();

  private FipsProviders() {}

  /**
   * Installs or moves the providers and returns the FIPS provider.
   *
   * @throws IllegalStateException if a provider under one of those names is not the expected one,
   *     or if the order could not be established
   */
  public static BouncyCastleFipsProvider establish() {
    synchronized (LOCK) {
      BouncyCastleFipsProvider fips = fipsProvider();
      placeAt(fips, 1);
      BouncyCastleJsseProvider jsse = jsseProvider();
      placeAt(jsse, 2);
      Provider[] providers = Security.getProviders();
      if (providers.length < 2 || providers[0] != fips || providers[1] != jsse) {
        throw new IllegalStateException(
            "could not put BCFIPS first and BCJSSE second among the security providers; they are: "
                + names(providers));
      }
      return fips;
    }
  }

  private static BouncyCastleFipsProvider fipsProvider() {
    Provider installed = Security.getProvider(BouncyCastleFipsProvider.PROVIDER_NAME);
    if (installed == null) {
      return new BouncyCastleFipsProvider();
    }
    if (installed instanceof BouncyCastleFipsProvider) {
      return (BouncyCastleFipsProvider) installed;
    }
    throw new IllegalStateException(
        "the security provider named BCFIPS is a "
            + installed.getClass().getName()
            + ", not BouncyCastle FIPS: remove it from the JVM's java.security configuration");
  }

  private static BouncyCastleJsseProvider jsseProvider() {
    Provider installed = Security.getProvider(BouncyCastleJsseProvider.PROVIDER_NAME);
    if (installed == null) {
      return new BouncyCastleJsseProvider("fips:" + BouncyCastleFipsProvider.PROVIDER_NAME);
    }
    if (installed instanceof BouncyCastleJsseProvider
        && ((BouncyCastleJsseProvider) installed).isFipsMode()) {
      return (BouncyCastleJsseProvider) installed;
    }
    throw new IllegalStateException(
        "the security provider BCJSSE is installed but not in FIPS mode: install it as"
            + " new BouncyCastleJsseProvider(\"fips:BCFIPS\") (or \"BCJSSE fips:BCFIPS\" in"
            + " java.security), or leave its installation to Bulwark");
  }

  private static void placeAt(Provider provider, int position) {
    Provider[] providers = Security.getProviders();
    if (providers.length >= position && providers[position - 1] == provider) {
      return;
    }
    Security.removeProvider(provider.getName());
    Security.insertProviderAt(provider, position);
  }

  private static String names(Provider[] providers) {
    return Arrays.stream(providers).map(Provider::getName).collect(Collectors.joining(", "));
  }
}
