package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.security.internal.TestCertificates.Issued;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import javax.net.ssl.X509ExtendedKeyManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin identity is a self-signed P-384 certificate on first start, the same one on later
 * starts, kept in a BCFKS keystore whose password is a secret; an operator's PEM chain replaces it
 * only when it is sound, and each refusal says what is wrong.
 */
class AdminTlsIdentityTest {
  @TempDir Path dir;

  private EncryptedSecretStore secrets() {
    return new EncryptedSecretStore(
        Fips.module(), null, new SecretStoreOptions(dir.resolve("secrets"), true));
  }

  private TlsOptions options() {
    return new TlsOptions(dir.resolve("tls/admin.bcfks"), "bulwark-01.example.net");
  }

  private AdminTlsIdentity identity() {
    return new AdminTlsIdentity(Fips.module(), secrets(), options(), Clock.systemUTC());
  }

  @Test
  void firstStartCreatesASelfSignedP384Certificate() throws Exception {
    X509Certificate certificate = identity().certificate();

    assertThat(certificate.getSubjectX500Principal().getName())
        .isEqualTo("CN=bulwark-01.example.net");
    assertThat(certificate.getIssuerX500Principal())
        .isEqualTo(certificate.getSubjectX500Principal());
    assertThat(certificate.getSigAlgName()).isEqualToIgnoringCase("SHA384withECDSA");
    assertThat(((ECPublicKey) certificate.getPublicKey()).getParams().getOrder().bitLength())
        .isEqualTo(384);
    certificate.verify(certificate.getPublicKey(), "BCFIPS");
    assertThat(certificate.getSubjectAlternativeNames())
        .extracting(name -> (Object) name.get(1))
        .containsExactlyInAnyOrder("localhost", "bulwark-01.example.net", "127.0.0.1");
    Duration validity =
        Duration.between(
            certificate.getNotBefore().toInstant(), certificate.getNotAfter().toInstant());
    assertThat(validity.toDays()).isEqualTo(825);
    assertThat(certificate.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
  }

  @Test
  void laterStartsLoadTheSameIdentityWithThePasswordFromTheSecretStore() throws Exception {
    X509Certificate first = identity().certificate();

    AdminTlsIdentity second = identity();

    assertThat(second.certificate()).isEqualTo(first);
    assertThat(secrets().get(AdminTlsIdentity.PASSWORD_SECRET)).isPresent();
    byte[] keystore = Files.readAllBytes(options().keystore());
    String password = new String(secrets().get(AdminTlsIdentity.PASSWORD_SECRET).orElseThrow());
    assertThat(new String(keystore, java.nio.charset.StandardCharsets.ISO_8859_1))
        .doesNotContain(password);
    X509ExtendedKeyManager keys = (X509ExtendedKeyManager) second.keyManagers().getKeyManagers()[0];
    String alias = keys.chooseServerAlias("ECDHE_ECDSA", null, null);
    assertThat(keys.getCertificateChain(alias)[0]).isEqualTo(first);
  }

  @Test
  void aKeystoreWhosePasswordIsLostGivesAClearError() throws Exception {
    identity();
    secrets().remove(AdminTlsIdentity.PASSWORD_SECRET);

    assertThatThrownBy(this::identity)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot open the admin TLS keystore")
        .hasMessageContaining("move it away to generate a new self-signed certificate");
  }

  @Test
  void aSoundChainReplacesTheIdentityAndSurvivesARestart() throws Exception {
    AdminTlsIdentity tls = identity();
    Issued[] chain = TestCertificates.validChain("admin.example.net");

    tls.importPem(
        TestCertificates.pem(chain[0].certificate(), chain[1].certificate()),
        TestCertificates.keyPem(chain[0].keys().getPrivate()));

    assertThat(tls.certificate()).isEqualTo(chain[0].certificate());
    assertThat(tls.certificateChain())
        .containsExactly(chain[0].certificate(), chain[1].certificate());
    X509ExtendedKeyManager keys = (X509ExtendedKeyManager) tls.keyManagers().getKeyManagers()[0];
    assertThat(keys.getCertificateChain(keys.chooseServerAlias("ECDHE_ECDSA", null, null))[0])
        .isEqualTo(chain[0].certificate());
    assertThat(identity().certificateChain())
        .containsExactly(chain[0].certificate(), chain[1].certificate());
  }

  @Test
  void aKeyOfAnotherCertificateIsRefusedAndNothingChanges() throws Exception {
    AdminTlsIdentity tls = identity();
    X509Certificate before = tls.certificate();
    byte[] keystoreBefore = Files.readAllBytes(options().keystore());
    Issued[] chain = TestCertificates.validChain("admin.example.net");

    assertThatThrownBy(
            () ->
                tls.importPem(
                    TestCertificates.pem(chain[0].certificate(), chain[1].certificate()),
                    TestCertificates.keyPem(TestCertificates.ecKeys("secp256r1").getPrivate())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the private key does not belong to the server certificate")
        .hasMessageContaining("CN=admin.example.net");
    assertThat(tls.certificate()).isEqualTo(before);
    assertThat(Files.readAllBytes(options().keystore())).isEqualTo(keystoreBefore);
  }

  @Test
  void anExpiredCertificateIsRefused() throws Exception {
    Instant now = Instant.now();
    Issued ca =
        TestCertificates.authority(
            "CN=Old CA", now.minus(Duration.ofDays(900)), now.plus(Duration.ofDays(900)));
    Issued server =
        TestCertificates.server(
            "CN=old.example.net",
            ca,
            now.minus(Duration.ofDays(800)),
            now.minus(Duration.ofDays(35)));

    assertThatThrownBy(
            () ->
                identity()
                    .importPem(
                        TestCertificates.pem(server.certificate(), ca.certificate()),
                        TestCertificates.keyPem(server.keys().getPrivate())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("certificate 1 (CN=old.example.net) expired on");
  }

  @Test
  void aChainInTheWrongOrderIsRefused() throws Exception {
    Issued[] chain = TestCertificates.validChain("admin.example.net");

    assertThatThrownBy(
            () ->
                identity()
                    .importPem(
                        TestCertificates.pem(chain[1].certificate(), chain[0].certificate()),
                        TestCertificates.keyPem(chain[1].keys().getPrivate())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not the issuer of certificate 1 (CN=Bulwark Test CA)")
        .hasMessageContaining("give the server certificate first");
  }

  @Test
  void aKeyOnAnotherCurveIsRefused() throws Exception {
    Instant now = Instant.now();
    Issued ca =
        TestCertificates.authority(
            "CN=Curve CA", now.minus(Duration.ofDays(1)), now.plus(Duration.ofDays(90)));
    Issued p521 =
        TestCertificates.server(
            "CN=p521.example.net",
            ca,
            now.minus(Duration.ofDays(1)),
            now.plus(Duration.ofDays(30)),
            "secp521r1");

    assertThatThrownBy(
            () ->
                identity()
                    .importPem(
                        TestCertificates.pem(p521.certificate(), ca.certificate()),
                        TestCertificates.keyPem(p521.keys().getPrivate())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the server key is on the EC curve 1.3.132.0.35")
        .hasMessageContaining("only P-256 (secp256r1) and P-384 (secp384r1) are allowed");
  }

  @Test
  void textThatIsNotPemIsRefusedWithoutQuotingTheKey() {
    char[] key =
        "-----BEGIN PRIVATE KEY-----\nU2VjcmV0S2V5TWF0ZXJpYWw=\n-----END PRIVATE KEY-----\n"
            .toCharArray();

    assertThatThrownBy(() -> identity().importPem("hello", key))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("holds no PEM CERTIFICATE block");
    assertThatThrownBy(
            () -> identity().importPem(TestCertificates.pem(identity().certificate()), key))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("U2VjcmV0");
  }

  @Test
  void anExpiredStoredCertificateStillLoadsSoTheOperatorCanReplaceIt() {
    identity();
    Instant muchLater = Instant.now().plus(Duration.ofDays(900));

    AdminTlsIdentity later =
        new AdminTlsIdentity(
            Fips.module(), secrets(), options(), Clock.fixed(muchLater, ZoneOffset.UTC));

    assertThat(later.certificate().getNotAfter().toInstant()).isBefore(muchLater);
  }

  @Test
  void allowsTls13And12WithAesGcmSuitesOnly() {
    AdminTlsIdentity tls = identity();

    assertThat(tls.protocols()).containsExactly("TLSv1.3", "TLSv1.2");
    assertThat(tls.cipherSuites())
        .containsExactly(
            "TLS_AES_256_GCM_SHA384",
            "TLS_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
    assertThat(tls.sslContext().getProvider().getName()).isEqualTo("BCJSSE");
    assertThat(tls.sslContext().getSupportedSSLParameters().getCipherSuites())
        .contains(tls.cipherSuites().toArray(String[]::new));
  }
}
