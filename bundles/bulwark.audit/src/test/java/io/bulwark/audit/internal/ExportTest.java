package io.bulwark.audit.internal;

import static io.bulwark.audit.internal.AuditFixture.appendAll;
import static io.bulwark.audit.internal.AuditFixture.logFile;
import static io.bulwark.audit.internal.AuditFixture.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.audit.ExportFormat;
import io.bulwark.api.audit.ExportSignature;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Signature;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportTest {
  @TempDir Path folder;
  private final InMemorySecretStore secrets = new InMemorySecretStore();

  @Test
  void jsonLinesExportIsTheStoredBytesWithAValidSignature() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      appendAll(log, 40);
      ByteArrayOutputStream out = new ByteArrayOutputStream();

      ExportSignature signature = log.export(ExportFormat.JSONL, out);

      byte[] exported = out.toByteArray();
      assertThat(exported).isEqualTo(Files.readAllBytes(logFile(folder)));
      assertThat(signature.records()).isEqualTo(40);
      assertThat(signature.bytes()).isEqualTo(exported.length);
      assertThat(signature.algorithm()).isEqualTo("SHA384withECDSA");
      assertThat(verifies(exported, signature)).isTrue();
      exported[exported.length / 2] ^= 1;
      assertThat(verifies(exported, signature)).isFalse();
    }
  }

  @Test
  void csvExportQuotesFieldsDefusesFormulasAndVerifies() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      log.append(
          new AuditEvent(
              "=cmd|' /C calc'!A0",
              "10.0.0.1",
              "user.create",
              "carol, \"the admin\"",
              AuditOutcome.SUCCESS,
              Map.of("note", "two\nlines")));
      ByteArrayOutputStream out = new ByteArrayOutputStream();

      ExportSignature signature = log.export(ExportFormat.CSV, out);

      byte[] exported = out.toByteArray();
      String csv = new String(exported, StandardCharsets.UTF_8);
      assertThat(csv).startsWith(CsvRow.HEADER + "\r\n");
      assertThat(csv)
          .contains(
              ",\"'=cmd|' /C calc'!A0\",10.0.0.1,user.create,\"carol, \"\"the admin\"\"\",SUCCESS,")
          .contains("\"{\"\"note\"\":\"\"two\\nlines\"\"}\"")
          .endsWith("\r\n");
      assertThat(csv.split("\r\n")).hasSize(2);
      assertThat(signature.records()).isEqualTo(1);
      assertThat(verifies(exported, signature)).isTrue();
      exported[exported.length - 3] ^= 1;
      assertThat(verifies(exported, signature)).isFalse();
    }
  }

  @Test
  void aDocumentIsSignedWithTheExportKeyOverExactlyItsBytes() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      byte[] document = "<CHECKLIST/>".getBytes(StandardCharsets.UTF_8);
      byte[] signature = log.sign(document);
      Signature verifier = FipsCrypto.signature();
      verifier.initVerify(PublicKeyPem.decode(log.publicKeyPem()));
      verifier.update(document);
      assertThat(verifier.verify(signature)).isTrue();
      document[1] ^= 1;
      verifier.initVerify(PublicKeyPem.decode(log.publicKeyPem()));
      verifier.update(document);
      assertThat(verifier.verify(signature)).isFalse();
    }
  }

  @Test
  void signingKeyIsMadeOnceAndKeptInTheSecretStore() throws Exception {
    String pem;
    try (FileAuditLog log = open(folder, secrets)) {
      pem = log.publicKeyPem();
      assertThat(pem)
          .startsWith("-----BEGIN PUBLIC KEY-----\n")
          .endsWith("-----END PUBLIC KEY-----\n");
      assertThat(secrets.get(AuditKeys.SIGNING_NAME)).isPresent();
    }
    try (FileAuditLog log = open(folder, secrets)) {
      assertThat(log.publicKeyPem()).isEqualTo(pem);
    }
  }

  @Test
  void exportToWritesDataSignatureAndPublicKeyBesideIt() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      appendAll(log, 5);
      Path exports = folder.resolve("exports");

      Path data = log.exportTo(ExportFormat.JSONL, exports);
      Path again = log.exportTo(ExportFormat.JSONL, exports);

      assertThat(data.getFileName().toString()).matches("audit-\\d{8}T\\d{6}Z\\.jsonl");
      assertThat(again).isNotEqualTo(data);
      assertThat(Files.readAllBytes(data)).isEqualTo(Files.readAllBytes(logFile(folder)));
      Signature verifier = FipsCrypto.signature();
      verifier.initVerify(PublicKeyPem.decode(Files.readString(Path.of(data + ".pem"))));
      verifier.update(Files.readAllBytes(data));
      assertThat(verifier.verify(Files.readAllBytes(Path.of(data + ".sig")))).isTrue();
    }
  }

  @Test
  void exportWithoutTheSigningKeyIsRefused() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      appendAll(log, 2);
      secrets.refuse(true);
      assertThatThrownBy(() -> log.export(ExportFormat.JSONL, new ByteArrayOutputStream()))
          .isInstanceOf(AuditUnavailableException.class)
          .hasMessageContaining("'audit.signing' is unavailable");
    }
  }

  private static boolean verifies(byte[] data, ExportSignature signature) throws Exception {
    Signature verifier = FipsCrypto.signature();
    verifier.initVerify(PublicKeyPem.decode(signature.publicKeyPem()));
    verifier.update(data);
    return verifier.verify(signature.signature());
  }
}
