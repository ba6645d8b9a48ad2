package io.bulwark.e2e;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Trusts exactly the certificate whose SHA-256 fingerprint the appliance printed on its console at
 * start, as an admin checks a fresh appliance's self-signed certificate: no CA, no trust-all. Host
 * names are still verified against the certificate's subject alternative names.
 */
final class PinnedCertificate implements X509TrustManager {
  private static final Pattern FINGERPRINT =
      Pattern.compile("SHA-256 fingerprint ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})");

  private final Path console;

  private PinnedCertificate(Path console) {
    this.console = console;
  }

  static HttpClient client(Path console) {
    return HttpClient.newBuilder()
        .sslContext(context(console))
        .connectTimeout(Duration.ofSeconds(2))
        .build();
  }

  /** Returns a TLS 1.3 context that trusts the certificate the console printed. */
  static SSLContext context(Path console) {
    try {
      SSLContext ssl = SSLContext.getInstance("TLSv1.3");
      ssl.init(null, new TrustManager[] {new PinnedCertificate(console)}, null);
      return ssl;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Returns the fingerprint the console printed last, or null before the listener started. */
  static String printedFingerprint(Path console) {
    try {
      String text = Files.exists(console) ? Files.readString(console, StandardCharsets.UTF_8) : "";
      Matcher m = FINGERPRINT.matcher(text);
      String last = null;
      while (m.find()) {
        last = m.group(1);
      }
      return last;
    } catch (IOException e) {
      return null;
    }
  }

  static String fingerprint(X509Certificate certificate) throws CertificateException {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
      return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
    } catch (GeneralSecurityException e) {
      throw new CertificateException(e);
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    String expected = printedFingerprint(console);
    String presented = fingerprint(chain[0]);
    if (!presented.equals(expected)) {
      throw new CertificateException(
          "server certificate " + presented + " is not the one the console printed: " + expected);
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    throw new CertificateException("not a server");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[0];
  }
}
