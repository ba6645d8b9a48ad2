package io.bulwark.audit.internal;

import static io.bulwark.audit.internal.AuditFixture.appendAll;
import static io.bulwark.audit.internal.AuditFixture.event;
import static io.bulwark.audit.internal.AuditFixture.lines;
import static io.bulwark.audit.internal.AuditFixture.logFile;
import static io.bulwark.audit.internal.AuditFixture.open;
import static io.bulwark.audit.internal.AuditFixture.rewrite;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditQuery;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.api.audit.AuditVerification;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records cut whole from the end of the log, which the hash chain alone cannot see. */
class AnchorTest {
  @TempDir Path folder;
  private final InMemorySecretStore secrets = new InMemorySecretStore();

  @BeforeEach
  void twentyRecords() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      appendAll(log, 20);
    }
  }

  @Test
  void anchorFollowsEveryAppend() throws Exception {
    Path anchor = folder.resolve("audit.jsonl.anchor");
    assertThat(Files.readString(anchor, StandardCharsets.US_ASCII)).contains("\"sequence\":20,");
    try (FileAuditLog log = open(folder, secrets)) {
      log.append(event(21));
      assertThat(Files.readString(anchor, StandardCharsets.US_ASCII)).contains("\"sequence\":21,");
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(21));
    }
  }

  @Test
  void wholeRecordsCutFromTheEndAreReportedAndRecorded() throws Exception {
    List<String> lines = lines(folder);
    rewrite(folder, lines.subList(0, 17));

    try (FileAuditLog log = open(folder, secrets)) {
      AuditVerification verdict = log.verify();
      assertThat(verdict.intact()).isFalse();
      assertThat(verdict.firstBadSequence()).isEqualTo(18);
      assertThat(verdict.problem())
          .startsWith("records 18 to 20 were cut from the end of the audit log");

      List<AuditRecord> records = log.search(AuditQuery.first(100));
      AuditRecord last = records.get(records.size() - 1);
      assertThat(last.sequence()).isEqualTo(18);
      assertThat(last.event().action()).isEqualTo(FileAuditLog.TRUNCATED_ACTION);
      assertThat(last.event().details())
          .containsEntry("anchorSequence", "20")
          .containsEntry("lastSequence", "17");
    }
  }

  @Test
  void deletingTheAnchorToHideACutIsRecorded() throws Exception {
    rewrite(folder, lines(folder).subList(0, 17));
    Files.delete(folder.resolve("audit.jsonl.anchor"));

    try (FileAuditLog log = open(folder, secrets)) {
      // The chain alone verifies: only the missing anchor tells.
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(18));
      AuditRecord last = log.search(AuditQuery.first(100)).get(17);
      assertThat(last.event().action()).isEqualTo(FileAuditLog.ANCHOR_ACTION);
      assertThat(last.event().details().get("problem"))
          .contains("is missing although the log holds 17 records");
    }
  }

  @Test
  void forgedAnchorIsRecordedAsUntrusted() throws Exception {
    Path anchor = folder.resolve("audit.jsonl.anchor");
    String text = Files.readString(anchor, StandardCharsets.US_ASCII);
    Files.writeString(anchor, text.replace("\"sequence\":20,", "\"sequence\":19,"));

    try (FileAuditLog log = open(folder, secrets)) {
      List<AuditRecord> records = log.search(AuditQuery.first(100));
      AuditRecord last = records.get(records.size() - 1);
      assertThat(last.event().action()).isEqualTo(FileAuditLog.ANCHOR_ACTION);
      assertThat(last.event().details().get("problem")).contains("HMAC");
    }
  }

  @Test
  void anchorBehindTheLogAfterACrashIsNotTampering() throws Exception {
    Path anchor = folder.resolve("audit.jsonl.anchor");
    byte[] atTwenty = Files.readAllBytes(anchor);
    try (FileAuditLog log = open(folder, secrets)) {
      log.append(event(21));
    }
    Files.write(anchor, atTwenty);

    try (FileAuditLog log = open(folder, secrets)) {
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(21));
      assertThat(log.search(AuditQuery.first(100))).hasSize(21);
    }
    assertThat(Files.size(logFile(folder))).isPositive();
  }
}
