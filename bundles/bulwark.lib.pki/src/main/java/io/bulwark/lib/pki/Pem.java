package io.bulwark.lib.pki;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PEM text (RFC 7468) of certificates, PKCS#10 certificate requests and PKCS#8 private keys, read
 * and written through the FIPS module.
 */
public final class Pem {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");

  private Pem() {}

  /** Returns {@code der} as one PEM block labelled {@code label}. */
  public static String encode(String label, byte[] der) {
    String body =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n";
  }

  /**
   * Returns the DER contents of every block labelled {@code label} in {@code text}, in order.
   *
   * @throws IllegalArgumentException if a block's body is not Base64
   */
  public static List<byte[]> decode(String label, String text) {
    List<byte[]> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(text == null ? "" : text);
    while (m.find()) {
      if (m.group(1).equals(label)) {
        try {
          out.add(Base64.getMimeDecoder().decode(m.group(2)));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("a PEM " + label + " block is not valid Base64");
        }
      }
    }
    return out;
  }

  /** Returns the certificate as a PEM {@code CERTIFICATE} block. */
  public static String certificate(X509Certificate certificate) {
    try {
      return encode("CERTIFICATE", certificate.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot encode certificate: " + e.getMessage(), e);
    }
  }

  /**
   * Returns the certificates of the PEM {@code CERTIFICATE} blocks in {@code text}, in order.
   *
   * @throws IllegalArgumentException if there are none or one is not an X.509 certificate
   */
  public static List<X509Certificate> certificates(String text) {
    List<byte[]> blocks = decode("CERTIFICATE", text);
    if (blocks.isEmpty()) {
      throw new IllegalArgumentException("no PEM CERTIFICATE block found");
    }
    List<X509Certificate> out = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509", "BCFIPS");
      for (byte[] der : blocks) {
        out.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "a PEM CERTIFICATE is not an X.509 certificate: " + e.getMessage(), e);
    }
    return List.copyOf(out);
  }

  /** Returns the first certificate of {@code text}; see {@link #certificates}. */
  public static X509Certificate certificate(String text) {
    return certificates(text).get(0);
  }

  /**
   * Returns the private key as an unencrypted PEM {@code PRIVATE KEY} (PKCS#8) block, as chars so
   * that the caller can clear them.
   */
  public static char[] privateKey(PrivateKey key) {
    byte[] der = key.getEncoded();
    try {
      return encode("PRIVATE KEY", der).toCharArray();
    } finally {
      Arrays.fill(der, (byte) 0);
    }
  }

  /**
   * Reads an EC private key from a PEM {@code PRIVATE KEY} block.
   *
   * @throws IllegalArgumentException if there is none or it is not an EC key (never quoting it)
   */
  public static PrivateKey ecPrivateKey(char[] pem) {
    List<byte[]> blocks = decode("PRIVATE KEY", new String(pem));
    if (blocks.size() != 1) {
      throw new IllegalArgumentException(
          "expected one PEM PRIVATE KEY block, found " + blocks.size());
    }
    byte[] der = blocks.get(0);
    try {
      return KeyFactory.getInstance("EC", "BCFIPS").generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("the PEM PRIVATE KEY is not an EC private key", e);
    } finally {
      Arrays.fill(der, (byte) 0);
    }
  }
}
