package io.bulwark.security.internal;

import java.io.CharArrayReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * Reads an operator's certificate chain and private key from PEM text into a {@link
 * ServerIdentity}, without judging them (that is {@link IdentityCheck}'s job). Errors say which
 * input is wrong and how; they never quote the key. Used by {@link AdminTlsIdentity#importPem}.
 */
final class PemIdentity {
  private PemIdentity() {}

  /**
   * Parses the chain and the key.
   *
   * @throws IllegalArgumentException if either is missing, malformed, encrypted or of another kind
   */
  static ServerIdentity parse(String certificateChainPem, char[] privateKeyPem) {
    if (certificateChainPem == null || certificateChainPem.isBlank()) {
      throw new IllegalArgumentException(
          "the certificate chain is empty: paste PEM CERTIFICATE blocks");
    }
    if (privateKeyPem == null || privateKeyPem.length == 0) {
      throw new IllegalArgumentException("the private key is empty: paste a PEM PRIVATE KEY block");
    }
    List<X509Certificate> chain = certificates(certificateChainPem);
    PrivateKey key = privateKey(privateKeyPem);
    return new ServerIdentity(key, chain);
  }

  private static List<X509Certificate> certificates(String pem) {
    List<X509Certificate> chain = new ArrayList<>();
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter().setProvider("BCFIPS");
    try (PEMParser parser = new PEMParser(new StringReader(pem))) {
      Object item;
      while ((item = readNext(parser, "certificate chain")) != null) {
        if (!(item instanceof X509CertificateHolder)) {
          throw new IllegalArgumentException(
              "the certificate chain holds a "
                  + kind(item)
                  + " as item "
                  + (chain.size() + 1)
                  + ": it must hold CERTIFICATE blocks only");
        }
        try {
          chain.add(converter.getCertificate((X509CertificateHolder) item));
        } catch (CertificateException e) {
          throw new IllegalArgumentException(
              "certificate "
                  + (chain.size() + 1)
                  + " of the chain cannot be read: "
                  + e.getMessage(),
              e);
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "the certificate chain cannot be read: " + e.getMessage(), e);
    }
    if (chain.isEmpty()) {
      throw new IllegalArgumentException(
          "the certificate chain holds no PEM CERTIFICATE block (-----BEGIN CERTIFICATE-----)");
    }
    return chain;
  }

  private static PrivateKey privateKey(char[] pem) {
    Object item;
    try (Reader reader = new CharArrayReader(pem);
        PEMParser parser = new PEMParser(reader)) {
      item = readNext(parser, "private key");
      if (item != null && readNext(parser, "private key") != null) {
        throw new IllegalArgumentException(
            "the private key text holds more than one PEM block: give the key only");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("the private key cannot be read", e);
    }
    if (item == null) {
      throw new IllegalArgumentException(
          "the private key text holds no PEM block (-----BEGIN PRIVATE KEY-----)");
    }
    if (item instanceof PEMEncryptedKeyPair || item instanceof PKCS8EncryptedPrivateKeyInfo) {
      throw new IllegalArgumentException(
          "the private key is encrypted: give it unencrypted (e.g. openssl pkey -in key.pem -out"
              + " plain.pem), over the protected admin connection");
    }
    PrivateKeyInfo info;
    if (item instanceof PEMKeyPair) {
      info = ((PEMKeyPair) item).getPrivateKeyInfo();
    } else if (item instanceof PrivateKeyInfo) {
      info = (PrivateKeyInfo) item;
    } else {
      throw new IllegalArgumentException(
          "the private key text holds a " + kind(item) + ", not a private key");
    }
    try {
      return new JcaPEMKeyConverter().setProvider("BCFIPS").getPrivateKey(info);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "the private key cannot be used by the FIPS module ("
              + e.getClass().getSimpleName()
              + ")",
          e);
    }
  }

  private static Object readNext(PEMParser parser, String what) {
    try {
      return parser.readObject();
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "the " + what + " is not valid PEM (" + e.getClass().getSimpleName() + ")", e);
    }
  }

  private static String kind(Object item) {
    String name = item.getClass().getSimpleName();
    return name.isEmpty() ? "PEM block of another kind" : name;
  }
}
