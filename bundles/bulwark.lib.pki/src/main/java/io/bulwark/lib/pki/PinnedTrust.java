package io.bulwark.lib.pki;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trust in one peer by the certificate fingerprint an admin pinned: BMCs carry self-signed
 * certificates whose names rarely match their addresses, and a node agent enrols with the
 * appliance's admin certificate fingerprint, so the pinned SHA-256 of the leaf certificate is the
 * peer's identity (as an SSH client keeps host keys). With nothing pinned, or another certificate
 * presented, the handshake fails before a byte of the request (or a credential) is sent, and the
 * fingerprint presented is kept for the admin to see. TLS is BCJSSE in FIPS mode; the digest is
 * BCFIPS's.
 */
public final class PinnedTrust extends X509ExtendedTrustManager {
  private final String peer;
  private final String pinned;
  private final AtomicReference<String> presented = new AtomicReference<>("");

  /**
   * Trusts the certificate whose SHA-256 is {@code pinnedSha256} (hex; colons allowed); {@code
   * peer} names it in errors, e.g. "the BMC".
   */
  public PinnedTrust(String peer, String pinnedSha256) {
    this.peer = peer;
    this.pinned =
        pinnedSha256 == null
            ? ""
            : pinnedSha256.replace(":", "").replace(" ", "").toLowerCase(java.util.Locale.ROOT);
  }

  /** Returns the fingerprint of the certificate the peer presented last, or "". */
  public String presented() {
    return presented.get();
  }

  /** Returns true if a certificate was refused because nothing is pinned yet. */
  public boolean unpinned() {
    return pinned.isEmpty();
  }

  /** Returns a BCJSSE client context trusting only the pinned certificate. */
  public SSLContext context() throws GeneralSecurityException {
    SSLContext ctx = SSLContext.getInstance("TLS", "BCJSSE");
    ctx.init(null, new TrustManager[] {this}, null);
    return ctx;
  }

  /** Returns the SHA-256 of the certificate's DER, lower-case hex. */
  public static String fingerprint(X509Certificate certificate) throws CertificateException {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256", "BCFIPS");
      return HexFormat.of().formatHex(sha256.digest(certificate.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new CertificateException("cannot take the certificate's SHA-256: " + e.getMessage(), e);
    }
  }

  private void check(X509Certificate[] chain) throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException(peer + " presented no certificate");
    }
    String fp = fingerprint(chain[0]);
    presented.set(fp);
    if (pinned.isEmpty()) {
      throw new CertificateException(
          "no certificate is pinned for " + peer + " yet; it presented " + fp);
    }
    if (!pinned.equals(fp)) {
      throw new CertificateException(
          peer + " presented certificate " + fp + ", not the pinned " + pinned);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("a client trusts no clients");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("a client trusts no clients");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw new CertificateException("a client trusts no clients");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
