package io.bulwark.notify.api;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * The client side of TLS for channels: BCJSSE in FIPS mode (installed by the security bundle), TLS
 * 1.3 and 1.2 with AES-GCM only, the receiver's certificate checked against the CA certificates an
 * administrator configured (PEM) and its name against the host connected to. No other trust: an
 * appliance on an isolated network has no public CAs to trust. Thread-safe.
 */
public final class ClientTls {
  private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};
  private static final String[] SUITES = {
    "TLS_AES_256_GCM_SHA384",
    "TLS_AES_128_GCM_SHA256",
    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"
  };

  private final SSLContext context;

  private ClientTls(SSLContext context) {
    this.context = context;
  }

  /**
   * Returns a client trusting the CA certificates in {@code caPem} (one or more PEM blocks).
   *
   * @param what names the setting for the error, e.g. "the channel 'siem' setting 'caCertificate'"
   * @throws IllegalArgumentException if the PEM holds no certificate or one that cannot be read
   * @throws IllegalStateException if the BCJSSE provider is not installed
   */
  public static ClientTls trusting(String caPem, String what) {
    List<Certificate> anchors = parse(caPem, what);
    try {
      KeyStore trust = KeyStore.getInstance("BCFKS", "BCFIPS");
      trust.load(null, null);
      for (int i = 0; i < anchors.size(); i++) {
        trust.setCertificateEntry("ca-" + i, anchors.get(i));
      }
      TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX", "BCJSSE");
      tmf.init(trust);
      SSLContext ctx = SSLContext.getInstance("TLS", "BCJSSE");
      ctx.init(null, tmf.getTrustManagers(), null);
      return new ClientTls(ctx);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "cannot set up client TLS through the BCJSSE provider (is the FIPS crypto module"
              + " running?): "
              + e.getMessage(),
          e);
    }
  }

  /** Returns the context, for clients that take one (HTTP). */
  public SSLContext context() {
    return context;
  }

  /** Returns the parameters a client should use: the protocols, the suites, the name check. */
  public SSLParameters parameters() {
    SSLParameters p = context.getDefaultSSLParameters();
    p.setProtocols(PROTOCOLS);
    List<String> offered = new ArrayList<>();
    List<String> supported = List.of(context.getSupportedSSLParameters().getCipherSuites());
    for (String s : SUITES) {
      if (supported.contains(s)) {
        offered.add(s);
      }
    }
    p.setCipherSuites(offered.toArray(String[]::new));
    p.setEndpointIdentificationAlgorithm("HTTPS");
    return p;
  }

  /**
   * Connects to {@code host:port} and completes the handshake.
   *
   * @throws IOException if the connection or the handshake fails (an untrusted certificate, a name
   *     that does not match, no common suite)
   */
  public SSLSocket connect(String host, int port, int timeoutMillis) throws IOException {
    Socket plain = new Socket();
    try {
      plain.connect(new InetSocketAddress(host, port), timeoutMillis);
      plain.setSoTimeout(timeoutMillis);
      return upgrade(plain, host, port);
    } catch (IOException | RuntimeException e) {
      plain.close();
      throw e;
    }
  }

  /**
   * Starts TLS on a connected socket (SMTP's STARTTLS) and completes the handshake.
   *
   * @throws IOException if the handshake fails
   */
  public SSLSocket upgrade(Socket plain, String host, int port) throws IOException {
    SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, host, port, true);
    tls.setSSLParameters(parameters());
    tls.setUseClientMode(true);
    try {
      tls.startHandshake();
    } catch (javax.net.ssl.SSLException e) {
      tls.close();
      throw e;
    } catch (IOException e) {
      // BCJSSE reports a refused certificate as its own TLS alert, not as an SSLException.
      tls.close();
      javax.net.ssl.SSLHandshakeException h =
          new javax.net.ssl.SSLHandshakeException(
              "handshake with " + host + ":" + port + " failed: " + e.getMessage());
      h.initCause(e);
      throw h;
    }
    return tls;
  }

  private static List<Certificate> parse(String pem, String what) {
    if (pem == null || !pem.contains("-----BEGIN CERTIFICATE-----")) {
      throw new IllegalArgumentException(
          what
              + " must hold the receiver's CA certificate(s) in PEM (-----BEGIN CERTIFICATE-----)");
    }
    try {
      CertificateFactory cf = CertificateFactory.getInstance("X.509", "BCFIPS");
      Collection<? extends Certificate> certs =
          cf.generateCertificates(
              new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
      if (certs.isEmpty()) {
        throw new IllegalArgumentException(what + " holds no certificate");
      }
      return List.copyOf(certs);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          what + " holds a certificate that cannot be read: " + e.getMessage(), e);
    }
  }
}
