package io.bulwark.cli;

import java.net.Socket;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts exactly one server certificate, the one whose SHA-256 fingerprint (of its DER encoding)
 * was pinned, as long as it is within its validity: the way to trust the appliance's self-signed
 * certificate, whose fingerprint its console prints. The pin names the certificate, so the host
 * name the client connects to is not checked against it. Trusts no client.
 */
final class PinnedCertificate extends X509ExtendedTrustManager {
  private final byte[] pin;

  /** Trusts the certificate with this SHA-256 fingerprint. */
  PinnedCertificate(byte[] sha256) {
    this.pin = sha256.clone();
  }

  /** The server presented another certificate than the pinned one. */
  static final class MismatchException extends CertificateException {
    private static final long serialVersionUID = 1L;

    MismatchException(String message) {
      super(message);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("the server presented no certificate");
    }
    X509Certificate leaf = chain[0];
    byte[] actual = Trust.sha256(leaf.getEncoded());
    if (!MessageDigest.isEqual(actual, pin)) {
      throw new MismatchException(
          "the appliance presented a certificate with SHA-256 fingerprint "
              + Trust.show(actual)
              + ", not the pinned "
              + Trust.show(pin));
    }
    try {
      leaf.checkValidity();
    } catch (CertificateExpiredException e) {
      throw new MismatchException(
          "the pinned certificate expired on " + leaf.getNotAfter().toInstant());
    } catch (CertificateNotYetValidException e) {
      throw new MismatchException(
          "the pinned certificate is not valid before " + leaf.getNotBefore().toInstant());
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkServerTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("the client trusts no client certificates");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
