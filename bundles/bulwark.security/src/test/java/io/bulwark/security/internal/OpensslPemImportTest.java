package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Certificates and keys made by OpenSSL, the way an operator would make them, go through the PEM
 * import: a P-256 certificate with a PKCS#8 or SEC1 key is accepted; an RSA-1024 certificate and an
 * encrypted key are refused with the reason.
 */
class OpensslPemImportTest {
  @TempDir Path dir;

  private AdminTlsIdentity tls;

  @BeforeEach
  void identity() {
    assumeTrue(Openssl.available(), "needs /usr/bin/openssl");
    tls =
        new AdminTlsIdentity(
            Fips.module(),
            new EncryptedSecretStore(
                Fips.module(), null, new SecretStoreOptions(dir.resolve("secrets"), true)),
            new TlsOptions(dir.resolve("admin.bcfks"), "localhost"),
            Clock.systemUTC());
  }

  private void selfSigned(String keyAlgorithm, String keyOption, String name) throws Exception {
    Openssl.Run run =
        Openssl.run(
            dir,
            "req",
            "-x509",
            "-newkey",
            keyAlgorithm,
            "-pkeyopt",
            keyOption,
            "-nodes",
            "-keyout",
            "key.pem",
            "-out",
            "cert.pem",
            "-days",
            "30",
            "-subj",
            "/CN=" + name,
            "-addext",
            "extendedKeyUsage=serverAuth");
    assertThat(run.exitStatus()).as(run.output()).isZero();
  }

  private String read(String file) throws Exception {
    return Files.readString(dir.resolve(file), StandardCharsets.US_ASCII);
  }

  @Test
  void anOpensslP256CertificateWithAPkcs8KeyIsAccepted() throws Exception {
    selfSigned("ec", "ec_paramgen_curve:P-256", "ops.example.net");

    tls.importPem(read("cert.pem"), read("key.pem").toCharArray());

    assertThat(tls.certificate().getSubjectX500Principal().getName())
        .isEqualTo("CN=ops.example.net");
  }

  @Test
  void aSec1EcKeyIsAcceptedToo() throws Exception {
    selfSigned("ec", "ec_paramgen_curve:P-384", "sec1.example.net");
    Openssl.Run convert = Openssl.run(dir, "ec", "-in", "key.pem", "-out", "sec1.pem");
    assertThat(convert.exitStatus()).as(convert.output()).isZero();
    assertThat(read("sec1.pem")).startsWith("-----BEGIN EC PRIVATE KEY-----");

    tls.importPem(read("cert.pem"), read("sec1.pem").toCharArray());

    assertThat(tls.certificate().getSubjectX500Principal().getName())
        .isEqualTo("CN=sec1.example.net");
  }

  @Test
  void anRsa1024CertificateIsRefused() throws Exception {
    selfSigned("rsa", "rsa_keygen_bits:1024", "weak.example.net");

    assertThatThrownBy(() -> tls.importPem(read("cert.pem"), read("key.pem").toCharArray()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("RSA of 1024 bits: RSA keys need 2048 bits or more");
  }

  @Test
  void anEncryptedKeyIsRefusedWithTheWayOut() throws Exception {
    selfSigned("ec", "ec_paramgen_curve:P-256", "locked.example.net");
    Openssl.Run encrypt =
        Openssl.run(
            dir,
            "pkcs8",
            "-topk8",
            "-in",
            "key.pem",
            "-out",
            "locked.pem",
            "-v2",
            "aes-256-cbc",
            "-passout",
            "pass:locked-key-passphrase");
    assertThat(encrypt.exitStatus()).as(encrypt.output()).isZero();

    assertThatThrownBy(() -> tls.importPem(read("cert.pem"), read("locked.pem").toCharArray()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the private key is encrypted");
  }
}
