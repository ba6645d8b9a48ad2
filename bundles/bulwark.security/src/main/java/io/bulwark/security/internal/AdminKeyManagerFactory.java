package io.bulwark.security.internal;

import java.security.KeyStore;
import java.security.Security;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.KeyManagerFactorySpi;
import javax.net.ssl.ManagerFactoryParameters;

/**
 * A {@code PKIX} key manager factory (reported as BCJSSE's) that is born initialised: it always
 * hands out the admin plane's {@link CurrentKeyManager}, and ignores {@code init} calls, so servers
 * that take a factory (Vert.x {@code KeyCertOptions.wrap}) serve the current admin identity. Used
 * by {@link AdminTlsIdentity}.
 */
final class AdminKeyManagerFactory extends KeyManagerFactory {

  AdminKeyManagerFactory(CurrentKeyManager keyManager) {
    super(new Spi(keyManager), Security.getProvider("BCJSSE"), "PKIX");
  }

  private static final class Spi extends KeyManagerFactorySpi {
    private final KeyManager[] keyManagers;

    Spi(CurrentKeyManager keyManager) {
      this.keyManagers = new KeyManager[] {keyManager};
    }

    @Override
    protected void engineInit(KeyStore store, char[] password) {
      // Born initialised with the admin identity.
    }

    @Override
    protected void engineInit(ManagerFactoryParameters parameters) {
      // Born initialised with the admin identity.
    }

    @Override
    protected KeyManager[] engineGetKeyManagers() {
      return keyManagers.clone();
    }
  }
}
