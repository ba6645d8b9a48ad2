package io.bulwark.security.internal;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A TLS server identity: a private key and its certificate chain, server certificate first. Used by
 * {@link AdminTlsIdentity} and the classes that create, load and import identities.
 *
 * @param privateKey the key of the first certificate
 * @param chain the certificates, never empty
 */
record ServerIdentity(PrivateKey privateKey, List<X509Certificate> chain) {

  ServerIdentity {
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("a server identity needs at least one certificate");
    }
  }

  /** Returns the server certificate. */
  X509Certificate certificate() {
    return chain.get(0);
  }

  @Override
  public String toString() {
    return "ServerIdentity[" + certificate().getSubjectX500Principal() + "]";
  }
}
