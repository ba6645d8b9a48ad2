package io.bulwark.testing.receivers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throwaway certificate authority and a server certificate it signed, generated with the {@code
 * openssl} command into a folder: the CA has an EC P-384 key and signs with SHA-384; the server
 * certificate has an EC P-256 key and names {@code 127.0.0.1} and {@code localhost} in its
 * subjectAltName, so a client that checks host names accepts it on loopback. The keys are
 * unencrypted PKCS#8 PEM files that only the owner may read. Each call to {@link #create} makes a
 * new CA with its own name, so certificates of two fixtures never vouch for each other.
 */
public final class TestCertificates {
  private static final Duration OPENSSL_TIMEOUT = Duration.ofSeconds(20);
  private static final String OPENSSL_CONFIG =
      """
      # Written by TestCertificates for a throwaway test CA.
      [req]
      distinguished_name = dn
      prompt = no

      [dn]
      CN = placeholder

      [ca_ext]
      basicConstraints = critical, CA:TRUE, pathlen:0
      keyUsage = critical, keyCertSign, cRLSign
      subjectKeyIdentifier = hash

      [server_ext]
      basicConstraints = critical, CA:FALSE
      keyUsage = critical, digitalSignature
      extendedKeyUsage = serverAuth
      subjectAltName = IP:127.0.0.1, DNS:localhost
      subjectKeyIdentifier = hash
      authorityKeyIdentifier = keyid
      """;

  private final Path directory;
  private final String caName;

  private TestCertificates(Path directory, String caName) {
    this.directory = directory;
    this.caName = caName;
  }

  /**
   * Generates a new CA and a server certificate for {@code 127.0.0.1}/{@code localhost} into {@code
   * dir} (created if missing) as {@code ca.pem}, {@code ca-key.pem}, {@code server.pem} and {@code
   * server-key.pem}, valid from now for 30 days.
   *
   * @throws IllegalStateException where the {@code openssl} command is missing or fails; the
   *     message carries its output
   */
  public static TestCertificates create(Path dir) {
    Path openssl = Processes.findExecutable("openssl", "apt-get install openssl");
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("openssl-test-ca.cnf"), OPENSSL_CONFIG);
      SecureRandom random = new SecureRandom();
      String caName = "Bulwark test CA " + HexFormat.of().toHexDigits(random.nextInt());
      run(
          openssl,
          dir,
          "req -x509 -config openssl-test-ca.cnf -extensions ca_ext -newkey ec"
              + " -pkeyopt ec_paramgen_curve:P-384 -nodes -sha384 -days 30"
              + " -keyout ca-key.pem -out ca.pem",
          "-set_serial",
          serial(random),
          "-subj",
          "/O=Bulwark tests/CN=" + caName);
      run(
          openssl,
          dir,
          "req -new -config openssl-test-ca.cnf -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes"
              + " -keyout server-key.pem -out server.csr",
          "-subj",
          "/O=Bulwark tests/CN=localhost");
      run(
          openssl,
          dir,
          "x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -sha384 -days 30"
              + " -extfile openssl-test-ca.cnf -extensions server_ext -out server.pem",
          "-set_serial",
          serial(random));
      Files.deleteIfExists(dir.resolve("server.csr"));
      for (String key : List.of("ca-key.pem", "server-key.pem")) {
        Files.setPosixFilePermissions(
            dir.resolve(key), PosixFilePermissions.fromString("rw-------"));
      }
      return new TestCertificates(dir, caName);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write the test certificates into " + dir, e);
    }
  }

  /** Runs openssl in {@code dir}: the space-separated {@code words}, then {@code more} as given. */
  private static void run(Path openssl, Path dir, String words, String... more) {
    List<String> command = new ArrayList<>();
    command.add(openssl.toString());
    command.addAll(List.of(words.split(" ")));
    command.addAll(List.of(more));
    Processes.run(dir, OPENSSL_TIMEOUT, command);
  }

  private static String serial(SecureRandom random) {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    bytes[0] &= 0x7f;
    return "0x" + HexFormat.of().formatHex(bytes);
  }

  /** The folder the certificates and keys are in. */
  public Path directory() {
    return directory;
  }

  /** The common name of this CA, unique to it ({@code Bulwark test CA} and a random suffix). */
  public String caName() {
    return caName;
  }

  /** The CA certificate (PEM): what a client under test trusts. */
  public Path caPem() {
    return directory.resolve("ca.pem");
  }

  /** The CA's private key (unencrypted PKCS#8 PEM), for a test that signs more certificates. */
  public Path caKeyPem() {
    return directory.resolve("ca-key.pem");
  }

  /**
   * The server certificate (PEM), for {@code 127.0.0.1} and {@code localhost}, signed by the CA.
   */
  public Path serverCertPem() {
    return directory.resolve("server.pem");
  }

  /** The server's private key (unencrypted PKCS#8 PEM, EC P-256). */
  public Path serverKeyPem() {
    return directory.resolve("server-key.pem");
  }

  /** The CA certificate, parsed. */
  public X509Certificate caCertificate() {
    return read(caPem());
  }

  /** The server certificate, parsed. */
  public X509Certificate serverCertificate() {
    return read(serverCertPem());
  }

  /**
   * A JDK client TLS context that trusts this CA and nothing else; pair it with endpoint
   * identification ({@code SSLParameters.setEndpointIdentificationAlgorithm("HTTPS")}) to check the
   * host name as well.
   */
  public SSLContext clientSslContext() {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("bulwark-test-ca", caCertificate());
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "Could not build a TLS context that trusts " + caPem() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Returns a server TLS context of the JDK's own provider (SunJSSE) with the server certificate
   * and key, for test servers that take an {@link SSLContext}.
   */
  public SSLContext serverSslContext() {
    try {
      SSLContext context = SSLContext.getInstance("TLS", "SunJSSE");
      context.init(serverKeyManagers().getKeyManagers(), null, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Could not build the test server's TLS context", e);
    }
  }

  /**
   * Returns key managers (SunJSSE's) holding the server certificate, its chain and key, for test
   * servers that build their own context, such as Vert.x with {@code KeyCertOptions.wrap}.
   *
   * @since 1.1
   */
  public javax.net.ssl.KeyManagerFactory serverKeyManagers() {
    try {
      java.security.PrivateKey key = serverKey("SunEC");
      // The JDK's own providers, named: a test server is not the appliance, and the FIPS module a
      // test may have installed first must not serve its keys.
      KeyStore keys = KeyStore.getInstance("PKCS12", "SUN");
      keys.load(null, null);
      char[] none = "test".toCharArray();
      keys.setKeyEntry(
          "server",
          key,
          none,
          new java.security.cert.Certificate[] {serverCertificate(), caCertificate()});
      javax.net.ssl.KeyManagerFactory factory =
          javax.net.ssl.KeyManagerFactory.getInstance("SunX509", "SunJSSE");
      factory.init(keys, none);
      return factory;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "Could not build a server TLS context from " + serverKeyPem() + ": " + e.getMessage(), e);
    }
  }

  /**
   * Returns key managers of the FIPS providers (the key in BCFIPS, a BCFKS key store, BCJSSE's PKIX
   * factory) holding the server certificate, its chain and key: for test servers in a JVM where
   * {@link io.bulwark.testing.FipsProviders} made BCJSSE the default TLS provider, as the appliance
   * serves its own listeners. Needs bc-fips and bctls-fips on the class path.
   *
   * @since 1.1
   */
  public javax.net.ssl.KeyManagerFactory serverKeyManagersFips() {
    try {
      java.security.PrivateKey key = serverKey("BCFIPS");
      KeyStore keys = KeyStore.getInstance("BCFKS", "BCFIPS");
      keys.load(null, null);
      char[] secret = "test-key-store-password".toCharArray();
      keys.setKeyEntry(
          "server",
          key,
          secret,
          new java.security.cert.Certificate[] {serverCertificate(), caCertificate()});
      javax.net.ssl.KeyManagerFactory factory =
          javax.net.ssl.KeyManagerFactory.getInstance("PKIX", "BCJSSE");
      factory.init(keys, secret);
      return factory;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "Could not build FIPS key managers from " + serverKeyPem() + ": " + e.getMessage(), e);
    }
  }

  /** Reads the server's PKCS#8 EC key with {@code provider}'s key factory. */
  private java.security.PrivateKey serverKey(String provider)
      throws IOException, GeneralSecurityException {
    String pem = Files.readString(serverKeyPem());
    String base64 = pem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
    return java.security.KeyFactory.getInstance("EC", provider)
        .generatePrivate(
            new java.security.spec.PKCS8EncodedKeySpec(
                java.util.Base64.getDecoder().decode(base64)));
  }

  private static X509Certificate read(Path pem) {
    try (InputStream in = Files.newInputStream(pem)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("Could not read the certificate " + pem, e);
    }
  }

  /**
   * Returns the SHA-256 fingerprint of the server certificate (64 lower-case hex digits), as an
   * admin pins it.
   */
  public String serverSha256() {
    try {
      return java.util.HexFormat.of()
          .formatHex(
              java.security.MessageDigest.getInstance("SHA-256", "SUN")
                  .digest(serverCertificate().getEncoded()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot fingerprint the test server certificate", e);
    }
  }
}
