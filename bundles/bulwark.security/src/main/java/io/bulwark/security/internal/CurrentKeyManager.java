package io.bulwark.security.internal;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The admin plane's key manager: answers with the BCJSSE {@code PKIX} key manager of the current
 * identity, which {@link #replace} swaps when the operator imports a certificate, so that contexts
 * built once keep serving the latest identity. Used by {@link AdminTlsIdentity}. Thread-safe.
 */
final class CurrentKeyManager extends X509ExtendedKeyManager {
  private volatile X509ExtendedKeyManager current;

  CurrentKeyManager(ServerIdentity identity, char[] password) {
    this.current = pkixFor(identity, password);
  }

  /** Makes new handshakes use {@code identity}. */
  void replace(ServerIdentity identity, char[] password) {
    current = pkixFor(identity, password);
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return current.getClientAliases(keyType, issuers);
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return current.chooseClientAlias(keyType, issuers, socket);
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return current.getServerAliases(keyType, issuers);
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return current.chooseServerAlias(keyType, issuers, socket);
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return current.chooseEngineClientAlias(keyType, issuers, engine);
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return current.chooseEngineServerAlias(keyType, issuers, engine);
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return current.getCertificateChain(alias);
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return current.getPrivateKey(alias);
  }

  private static X509ExtendedKeyManager pkixFor(ServerIdentity identity, char[] password) {
    try {
      KeyStore store = TlsKeyStore.inMemory(identity, password);
      KeyManagerFactory factory = KeyManagerFactory.getInstance("PKIX", "BCJSSE");
      factory.init(store, password);
      for (KeyManager manager : factory.getKeyManagers()) {
        if (manager instanceof X509ExtendedKeyManager) {
          return (X509ExtendedKeyManager) manager;
        }
      }
      throw new IllegalStateException(
          "the BCJSSE PKIX key manager factory gave no X.509 key manager");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "the BCJSSE provider cannot use the admin TLS key: " + e.getMessage(), e);
    }
  }
}
