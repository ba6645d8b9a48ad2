package io.bulwark.security.internal;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The admin plane's trust manager: it trusts no certificate, because admin users authenticate with
 * passwords and tokens, not client certificates, and the admin context never connects out. It also
 * keeps the JSSE provider from loading the JVM's default CA store. Used by {@link
 * AdminTlsIdentity}.
 */
final class NoClientCertificates extends X509ExtendedTrustManager {
  private static final X509Certificate[] NONE = new X509Certificate[0];

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw refused();
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw refused();
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw refused();
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw refused();
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw refused();
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    throw refused();
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return NONE.clone();
  }

  private static CertificateException refused() {
    return new CertificateException(
        "the admin plane accepts no client certificates and makes no outgoing TLS connections");
  }
}
