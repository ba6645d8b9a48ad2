package io.bulwark.testing.receivers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestCertificatesTest {
  @TempDir Path dir;

  @Test
  void theServerCertificateNamesLoopbackAndIsSignedByTheP384Ca() throws Exception {
    TestCertificates certificates = TestCertificates.create(dir);

    X509Certificate ca = certificates.caCertificate();
    X509Certificate server = certificates.serverCertificate();
    server.verify(ca.getPublicKey());
    ca.verify(ca.getPublicKey());
    assertThat(ca.getSigAlgName()).isEqualTo("SHA384withECDSA");
    assertThat(((ECPublicKey) ca.getPublicKey()).getParams().getCurve().getField().getFieldSize())
        .isEqualTo(384);
    assertThat(ca.getBasicConstraints()).isEqualTo(0);
    assertThat(ca.getSubjectX500Principal().getName()).contains(certificates.caName());
    assertThat(server.getSigAlgName()).isEqualTo("SHA384withECDSA");
    assertThat(server.getPublicKey().getAlgorithm()).isEqualTo("EC");
    assertThat(server.getBasicConstraints()).isEqualTo(-1);
    assertThat(server.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.1");
    assertThat(server.getSubjectAlternativeNames())
        .containsExactlyInAnyOrder(List.of(7, "127.0.0.1"), List.of(2, "localhost"));
    server.checkValidity();
  }

  @Test
  void theKeysAreUnencryptedPkcs8ThatOnlyTheOwnerReads() throws Exception {
    TestCertificates certificates = TestCertificates.create(dir);

    for (Path key : List.of(certificates.serverKeyPem(), certificates.caKeyPem())) {
      assertThat(Files.readString(key)).startsWith("-----BEGIN PRIVATE KEY-----");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key)))
          .isEqualTo("rw-------");
    }
  }

  @Test
  void eachCaIsNew() {
    TestCertificates first = TestCertificates.create(dir.resolve("first"));
    TestCertificates second = TestCertificates.create(dir.resolve("second"));

    assertThat(first.caName()).isNotEqualTo(second.caName());
    assertThat(first.caCertificate().getPublicKey())
        .isNotEqualTo(second.caCertificate().getPublicKey());
  }
}
