package io.bulwark.bmc.redfish.internal;

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
 * Trust in one BMC by the fingerprint an admin pinned: BMCs carry self-signed certificates whose
 * names rarely match their addresses, so the pinned SHA-256 of the leaf certificate is the BMC's
 * identity (trust on first use, as an SSH client keeps host keys). With nothing pinned, or another
 * certificate presented, the handshake fails before a byte of the request (or a credential) is
 * sent, and the fingerprint presented is kept for the admin to see. TLS is BCJSSE in FIPS mode; the
 * digest is BCFIPS's.
 */
final class PinnedTrust extends X509ExtendedTrustManager {
  private final String pinned;
  private final AtomicReference<String> presented = new AtomicReference<>("");

  PinnedTrust(String pinnedSha256) {
    this.pinned = pinnedSha256 == null ? "" : pinnedSha256;
  }

  /** Returns the fingerprint of the certificate the BMC presented last, or "". */
  String presented() {
    return presented.get();
  }

  /** Returns true if a certificate was refused because nothing is pinned yet. */
  boolean unpinned() {
    return pinned.isEmpty();
  }

  /** Returns a BCJSSE client context trusting only the pinned certificate. */
  SSLContext context() throws GeneralSecurityException {
    SSLContext ctx = SSLContext.getInstance("TLS", "BCJSSE");
    ctx.init(null, new TrustManager[] {this}, null);
    return ctx;
  }

  static String fingerprint(X509Certificate certificate) throws CertificateException {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256", "BCFIPS");
      return HexFormat.of().formatHex(sha256.digest(certificate.getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new CertificateException("cannot take the certificate's SHA-256: " + e.getMessage(), e);
    }
  }

  private void check(X509Certificate[] chain) throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("the BMC presented no certificate");
    }
    String fp = fingerprint(chain[0]);
    presented.set(fp);
    if (pinned.isEmpty()) {
      throw new CertificateException(
          "no certificate is pinned for this BMC yet; it presented " + fp);
    }
    if (!pinned.equals(fp)) {
      throw new CertificateException(
          "the BMC presented certificate " + fp + ", not the pinned " + pinned);
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
    throw new CertificateException("a BMC client trusts no clients");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("a BMC client trusts no clients");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw new CertificateException("a BMC client trusts no clients");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
