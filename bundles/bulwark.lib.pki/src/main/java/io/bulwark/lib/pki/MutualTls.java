package io.bulwark.lib.pki;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * Mutually authenticated TLS between the appliance and its node agents, done by BCJSSE in FIPS
 * mode: TLS 1.3 only, AES-GCM suites; each side presents a certificate of the agent authority and
 * trusts that authority alone (no system trust store).
 */
public final class MutualTls {
  /** The only protocol the channel speaks. */
  public static final List<String> PROTOCOLS = List.of("TLSv1.3");

  /** The suites, strongest first. */
  public static final List<String> CIPHER_SUITES =
      List.of("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256");

  private MutualTls() {}

  /**
   * Returns a BCJSSE key manager factory holding {@code key} and {@code chain} (an in-memory BCFKS
   * keystore under a random password).
   */
  public static KeyManagerFactory keyManagers(
      PrivateKey key, List<X509Certificate> chain, SecureRandom random) {
    try {
      char[] password = randomPassword(random);
      KeyStore store = KeyStore.getInstance("BCFKS", "BCFIPS");
      store.load(null, null);
      store.setKeyEntry("identity", key, password, chain.toArray(Certificate[]::new));
      KeyManagerFactory kmf = KeyManagerFactory.getInstance("PKIX", "BCJSSE");
      kmf.init(store, password);
      return kmf;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException(
          "cannot load the channel identity into BCJSSE: " + e.getMessage(), e);
    }
  }

  /** Returns a BCJSSE trust manager factory that trusts {@code anchor} alone. */
  public static TrustManagerFactory trustManagers(X509Certificate anchor) {
    try {
      KeyStore store = KeyStore.getInstance("BCFKS", "BCFIPS");
      store.load(null, null);
      store.setCertificateEntry("authority", anchor);
      TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX", "BCJSSE");
      tmf.init(store);
      return tmf;
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException(
          "cannot load the agent authority into BCJSSE: " + e.getMessage(), e);
    }
  }

  /** Returns a BCJSSE context presenting {@code key}/{@code chain} and trusting {@code anchor}. */
  public static SSLContext context(
      PrivateKey key, List<X509Certificate> chain, X509Certificate anchor, SecureRandom random) {
    try {
      SSLContext ctx = SSLContext.getInstance("TLS", "BCJSSE");
      ctx.init(
          keyManagers(key, chain, random).getKeyManagers(),
          trustManagers(anchor).getTrustManagers(),
          random);
      return ctx;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "cannot create the channel's TLS context: " + e.getMessage(), e);
    }
  }

  /**
   * Returns parameters of {@code ctx} restricted to {@link #PROTOCOLS} and {@link #CIPHER_SUITES}.
   */
  public static SSLParameters parameters(SSLContext ctx) {
    SSLParameters p = ctx.getDefaultSSLParameters();
    p.setProtocols(PROTOCOLS.toArray(String[]::new));
    List<String> supported = List.of(ctx.getSupportedSSLParameters().getCipherSuites());
    p.setCipherSuites(CIPHER_SUITES.stream().filter(supported::contains).toArray(String[]::new));
    return p;
  }

  private static char[] randomPassword(SecureRandom random) {
    char[] out = new char[32];
    String alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    for (int i = 0; i < out.length; i++) {
      out[i] = alphabet.charAt(random.nextInt(alphabet.length()));
    }
    return out;
  }
}
