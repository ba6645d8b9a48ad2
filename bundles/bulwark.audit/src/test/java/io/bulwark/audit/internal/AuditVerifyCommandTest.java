package io.bulwark.audit.internal;

import static io.bulwark.audit.internal.AuditFixture.appendAll;
import static io.bulwark.audit.internal.AuditFixture.open;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.ExportFormat;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditVerifyCommandTest {
  @TempDir Path folder;
  private Path jsonl;
  private Path csv;
  private Path pem;

  @BeforeEach
  void export() throws Exception {
    try (FileAuditLog log = open(folder.resolve("log"), new InMemorySecretStore())) {
      appendAll(log, 25);
      jsonl = log.exportTo(ExportFormat.JSONL, folder);
      csv = log.exportTo(ExportFormat.CSV, folder);
    }
    pem = Path.of(jsonl + ".pem");
  }

  @Test
  void intactExportWithValidSignature() {
    Result r = run("verify", jsonl.toString(), "--public-key", pem.toString());

    assertThat(r.code).isZero();
    assertThat(r.lines.get(0)).isEqualTo("intact: 25 records");
    assertThat(r.out).contains("signature: valid (SHA384withECDSA");
    assertThat(r.out).contains("hmac: not checked: the HMACs need the appliance's audit key");
  }

  @Test
  void intactExportWithoutKeySaysTheSignatureWasNotChecked() {
    Result r = run("verify", jsonl.toString());

    assertThat(r.code).isZero();
    assertThat(r.lines.get(0)).isEqualTo("intact: 25 records");
    assertThat(r.out).contains("signature: not checked");
  }

  @Test
  void alteredRecordIsNamed() throws Exception {
    editLines(lines -> lines.set(16, lines.get(16).replace("node-17", "node-71")));

    Result r = run("verify", jsonl.toString());

    assertThat(r.code).isEqualTo(1);
    assertThat(r.lines.get(0)).isEqualTo("record 17 altered: hash mismatch");
  }

  @Test
  void missingRecordIsNamed() throws Exception {
    editLines(lines -> lines.remove(17));

    Result r = run("verify", jsonl.toString());

    assertThat(r.code).isEqualTo(1);
    assertThat(r.lines.get(0)).isEqualTo("record 18 missing: sequence jumps from 17 to 19");
  }

  @Test
  void reorderedRecordIsNamed() throws Exception {
    editLines(
        lines -> {
          String twelve = lines.get(11);
          lines.set(11, lines.get(12));
          lines.set(12, twelve);
        });

    Result r = run("verify", jsonl.toString());

    assertThat(r.code).isEqualTo(1);
    assertThat(r.lines.get(0)).startsWith("record 12 out of order");
  }

  @Test
  void tornExportIsNamed() throws Exception {
    byte[] whole = Files.readAllBytes(jsonl);
    Files.write(jsonl, Arrays.copyOf(whole, whole.length - 40));

    Result r = run("verify", jsonl.toString());

    assertThat(r.code).isEqualTo(1);
    assertThat(r.lines.get(0)).startsWith("record 25 torn: ");
  }

  @Test
  void oneChangedByteFailsTheSignature() throws Exception {
    byte[] whole = Files.readAllBytes(jsonl);
    int inHmac = new String(whole, StandardCharsets.UTF_8).lastIndexOf("\"hmac\":\"") + 10;
    whole[inHmac] = (byte) (whole[inHmac] == 'a' ? 'b' : 'a');
    Files.write(jsonl, whole);

    Result withoutKey = run("verify", jsonl.toString());
    Result withKey = run("verify", jsonl.toString(), "--public-key", pem.toString());

    assertThat(withoutKey.code).as("an HMAC change is invisible offline without the key").isZero();
    assertThat(withKey.code).isEqualTo(1);
    assertThat(withKey.lines.get(0)).startsWith("signature invalid");
    assertThat(withKey.out).contains("signature: INVALID");
  }

  @Test
  void csvExportIsCheckedByItsSignature() throws Exception {
    Path csvPem = Path.of(csv + ".pem");
    Result valid = run("verify", csv.toString(), "--public-key", csvPem.toString());
    byte[] whole = Files.readAllBytes(csv);
    whole[whole.length / 2] ^= 1;
    Files.write(csv, whole);
    Result invalid = run("verify", csv.toString(), "--public-key", csvPem.toString());

    assertThat(valid.code).isZero();
    assertThat(valid.lines.get(0)).startsWith("signature valid: ");
    assertThat(invalid.code).isEqualTo(1);
    assertThat(invalid.lines.get(0)).startsWith("signature invalid");
  }

  @Test
  void usageAndReadErrorsExitWithTwo() {
    assertThat(run().code).isEqualTo(2);
    assertThat(run("check", jsonl.toString()).code).isEqualTo(2);
    assertThat(run("verify", jsonl.toString(), "--colour", "red").code).isEqualTo(2);
    Result missing = run("verify", folder.resolve("nothing.jsonl").toString());
    assertThat(missing.code).isEqualTo(2);
    assertThat(missing.err).startsWith("cannot verify ");
  }

  private void editLines(java.util.function.Consumer<List<String>> edit) throws Exception {
    List<String> lines = new ArrayList<>(Files.readAllLines(jsonl, StandardCharsets.UTF_8));
    edit.accept(lines);
    Files.writeString(jsonl, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
  }

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        AuditVerifyCommand.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    return new Result(code, text, text.lines().toList(), err.toString(StandardCharsets.UTF_8));
  }

  private record Result(int code, String out, List<String> lines, String err) {}
}
