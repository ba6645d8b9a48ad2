package io.bulwark.api.security;

import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The admin plane's TLS server identity: its certificate chain and private key (kept in a BCFKS
 * keystore whose password is a secret in the secret store), a server {@link SSLContext} of the
 * BouncyCastle JSSE provider in FIPS mode, and the protocols and cipher suites the admin plane
 * allows. Provided by the security bundle; used by the web bundle, which must restrict its listener
 * to {@link #protocols()} and {@link #cipherSuites()}. Thread-safe.
 *
 * <p>The context and the key managers always present the current certificate: after {@link
 * #importPem} new handshakes use the imported one without a restart.
 */
@ProviderType
public interface AdminTls {

  /**
   * Returns the server context ({@code SSLContext.getInstance("TLS", "BCJSSE")}) initialised with
   * {@link #keyManagers()}; it asks for no client certificates and trusts none. Never null.
   */
  SSLContext sslContext();

  /**
   * Returns a {@code PKIX} key manager factory of the BCJSSE provider that is already initialised
   * with the admin identity (do not call {@code init} on it); for servers that build their own
   * context, such as Vert.x with {@code KeyCertOptions.wrap}. Never null.
   */
  KeyManagerFactory keyManagers();

  /** Returns the allowed protocols, strongest first: TLSv1.3, TLSv1.2. Immutable. */
  List<String> protocols();

  /**
   * Returns the allowed cipher suites in order of preference (IANA names): the TLS 1.3 AES-GCM
   * suites, then ECDHE with AES-GCM for ECDSA and RSA keys. Immutable.
   */
  List<String> cipherSuites();

  /** Returns the server certificate (the first of the chain). Never null. */
  X509Certificate certificate();

  /** Returns the certificate chain, server certificate first. Immutable, never empty. */
  List<X509Certificate> certificateChain();

  /**
   * Replaces the admin identity with an operator's certificate chain and private key after checking
   * them: the key matches the first certificate, each certificate is issued by the next one, none
   * has expired or is not yet valid, and the key is EC P-256, EC P-384 or RSA of 2048 bits or more.
   * The new keystore replaces the old one atomically; on any error nothing changes.
   *
   * @param certificateChainPem PEM {@code CERTIFICATE} blocks, server certificate first
   * @param privateKeyPem an unencrypted PEM private key ({@code PRIVATE KEY}, {@code EC PRIVATE
   *     KEY} or {@code RSA PRIVATE KEY}); not modified: the caller clears it
   * @throws IllegalArgumentException naming what is wrong with the certificates or the key (never
   *     quoting the key)
   * @throws IllegalStateException if the new keystore cannot be written
   */
  void importPem(String certificateChainPem, char[] privateKeyPem);
}
