package io.bulwark.notify.smtp.internal;

import java.security.Security;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;
import org.bouncycastle.jsse.provider.BouncyCastleJsseProvider;

/** Installs the providers as the security bundle does in the appliance: BCFIPS, then BCJSSE. */
final class Fips {
  private Fips() {}

  static synchronized void install() {
    if (Security.getProvider("BCFIPS") == null) {
      Security.insertProviderAt(new BouncyCastleFipsProvider(), 1);
      Security.insertProviderAt(new BouncyCastleJsseProvider("fips:BCFIPS"), 2);
    }
  }
}
