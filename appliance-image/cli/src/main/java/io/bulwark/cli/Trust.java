package io.bulwark.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS contexts the client connects with, both BCJSSE in FIPS mode: one that trusts the
 * certificate authorities of a PEM file (the chain is checked by PKIX and the host name by the
 * HTTPS rules), and one that accepts only the certificate whose SHA-256 fingerprint was pinned.
 * There is no context that accepts anything else.
 */
final class Trust {
  private static final Pattern PEM_CERTIFICATE =
      Pattern.compile("-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\\s]+)-----END CERTIFICATE-----");

  private Trust() {}

  /**
   * Returns a context that trusts the CA certificates in {@code pemFile}.
   *
   * @throws UsageException if the file cannot be read or holds no certificate
   */
  static SSLContext authorities(Path pemFile, SecureRandom random)
      throws UsageException, GeneralSecurityException {
    List<X509Certificate> certificates = readCertificates(pemFile);
    KeyStore anchors = KeyStore.getInstance("BCFKS", "BCFIPS");
    try {
      anchors.load(null, null);
    } catch (IOException e) {
      throw new GeneralSecurityException("cannot create a trust store: " + e.getMessage(), e);
    }
    for (int i = 0; i < certificates.size(); i++) {
      anchors.setCertificateEntry("ca-" + i, certificates.get(i));
    }
    TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX", "BCJSSE");
    factory.init(anchors);
    return context(factory.getTrustManagers(), random);
  }

  /** Returns a context that accepts only a server certificate with this SHA-256 fingerprint. */
  static SSLContext pinned(byte[] sha256, SecureRandom random) throws GeneralSecurityException {
    return context(new TrustManager[] {new PinnedCertificate(sha256)}, random);
  }

  private static SSLContext context(TrustManager[] trustManagers, SecureRandom random)
      throws GeneralSecurityException {
    SSLContext context = SSLContext.getInstance("TLS", "BCJSSE");
    context.init(null, trustManagers, random);
    return context;
  }

  /**
   * Returns the fingerprint an operator wrote ({@code AA:BB:…} as the console prints it; case,
   * spaces and the colons do not matter) as 32 bytes.
   *
   * @throws UsageException if it is not 64 hexadecimal digits
   */
  static byte[] fingerprint(String text) throws UsageException {
    String hex = text.replaceAll("[:\\s]", "").toLowerCase(Locale.ROOT);
    if (!hex.matches("[0-9a-f]{64}")) {
      throw new UsageException(
          "--fingerprint must be the certificate's SHA-256 fingerprint as the appliance's console"
              + " prints it, 32 pairs of hexadecimal digits separated by colons (AA:BB:…:FF)");
    }
    return HexFormat.of().parseHex(hex);
  }

  /** Returns the SHA-256 fingerprint of the certificate's DER encoding as "AA:BB:…". */
  static String fingerprint(X509Certificate certificate) throws CertificateEncodingException {
    return show(sha256(certificate.getEncoded()));
  }

  /** Returns the fingerprint as "AA:BB:…". */
  static String show(byte[] sha256) {
    return HexFormat.ofDelimiter(":").withUpperCase().formatHex(sha256);
  }

  static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available: " + e.getMessage(), e);
    }
  }

  private static List<X509Certificate> readCertificates(Path pemFile) throws UsageException {
    String text;
    try {
      text = Files.readString(pemFile, StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw UsageException.cannot("read the --ca file " + pemFile, e);
    }
    List<X509Certificate> certificates = new ArrayList<>();
    Matcher m = PEM_CERTIFICATE.matcher(text);
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509", "BCFIPS");
      while (m.find()) {
        byte[] der = Base64.getMimeDecoder().decode(m.group(1));
        certificates.add(
            (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
      }
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new UsageException(
          "the --ca file " + pemFile + " holds a certificate that cannot be read: " + reason(e));
    }
    if (certificates.isEmpty()) {
      throw new UsageException(
          "the --ca file "
              + pemFile
              + " holds no PEM certificate (-----BEGIN CERTIFICATE-----); give the CA"
              + " certificate that issued the appliance's certificate");
    }
    return certificates;
  }

  private static String reason(Exception e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
