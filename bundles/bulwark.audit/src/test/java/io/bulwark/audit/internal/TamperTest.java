package io.bulwark.audit.internal;

import static io.bulwark.audit.internal.AuditFixture.appendAll;
import static io.bulwark.audit.internal.AuditFixture.event;
import static io.bulwark.audit.internal.AuditFixture.lines;
import static io.bulwark.audit.internal.AuditFixture.logFile;
import static io.bulwark.audit.internal.AuditFixture.open;
import static io.bulwark.audit.internal.AuditFixture.rewrite;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditQuery;
import io.bulwark.api.audit.AuditVerification;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TamperTest {
  @TempDir Path folder;
  private final InMemorySecretStore secrets = new InMemorySecretStore();

  @BeforeEach
  void thirtyRecords() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      appendAll(log, 30);
    }
  }

  @Test
  void alteredFieldIsPinpointed() throws Exception {
    List<String> lines = lines(folder);
    lines.set(16, lines.get(16).replace("\"actor\":\"bob\"", "\"actor\":\"eve\""));
    rewrite(folder, lines);

    assertVerdict(17, "record 17 altered: hash mismatch");
  }

  @Test
  void deletedRecordIsPinpointed() throws Exception {
    List<String> lines = lines(folder);
    lines.remove(17);
    rewrite(folder, lines);

    assertVerdict(18, "record 18 missing: sequence jumps from 17 to 19");
  }

  @Test
  void deletedFirstRecordIsPinpointed() throws Exception {
    List<String> lines = lines(folder);
    lines.remove(0);
    rewrite(folder, lines);

    assertVerdict(1, "record 1 missing: the log starts at record 2");
  }

  @Test
  void swappedRecordsArePinpointed() throws Exception {
    List<String> lines = lines(folder);
    String twelve = lines.get(11);
    lines.set(11, lines.get(12));
    lines.set(12, twelve);
    rewrite(folder, lines);

    assertVerdict(12, "record 12 out of order: record 13 stands in its place");
  }

  @Test
  void replayedRecordIsPinpointed() throws Exception {
    List<String> lines = lines(folder);
    lines.add(20, lines.get(4));
    rewrite(folder, lines);

    assertVerdict(5, "record 5 out of order: it comes after record 20");
  }

  @Test
  void rewrittenChainWithoutTheKeyFailsTheHmac() throws Exception {
    List<String> lines = lines(folder);
    String previous = StoredRecord.parse(bytes(lines.get(8)), bytes(lines.get(8)).length).hash();
    for (int i = 9; i < lines.size(); i++) {
      StoredRecord r = StoredRecord.parse(bytes(lines.get(i)), bytes(lines.get(i)).length);
      StoredRecord forged =
          new StoredRecord(
              r.sequence(),
              r.at(),
              i == 9 ? "eve" : r.actor(),
              r.source(),
              r.action(),
              r.target(),
              r.outcome(),
              r.details(),
              previous,
              "",
              "");
      String hash = FipsCrypto.sha256Hex(FipsCrypto.sha256(), forged.body());
      lines.set(i, forged.sealed(hash, r.hmac()).line());
      previous = hash;
    }
    rewrite(folder, lines);

    assertVerdict(
        10,
        "record 10 altered: HMAC mismatch (the record was rewritten without the appliance's audit"
            + " key)");
    try (FileChannel channel = FileChannel.open(logFile(folder))) {
      assertThat(new ChainVerifier(null).check(channel, channel.size()).verdict().intact())
          .as("the hash chain alone cannot see a consistent rewrite")
          .isTrue();
    }
  }

  @Test
  void nonCanonicalEncodingIsAnAlteration() throws Exception {
    List<String> lines = lines(folder);
    lines.set(2, lines.get(2).replace("\"source\":\"1", "\"source\":\"\\u0031"));
    rewrite(folder, lines);

    assertVerdict(3, "record 3 altered: not in the stored canonical form");
  }

  @Test
  void garbageLineIsPinpointed() throws Exception {
    List<String> lines = lines(folder);
    lines.set(6, "{\"seq\":7,\"oops\"");
    rewrite(folder, lines);

    AuditVerification verdict = verdict();
    assertThat(verdict.firstBadSequence()).isEqualTo(7);
    assertThat(verdict.problem()).startsWith("record 7 altered: not a record (");
  }

  @Test
  void tamperedLogIsKeptAsEvidenceAndAppendingGoesOn() throws Exception {
    List<String> lines = lines(folder);
    lines.remove(17);
    rewrite(folder, lines);
    byte[] evidence = Files.readAllBytes(logFile(folder));

    try (FileAuditLog log = open(folder, secrets)) {
      assertThat(log.append(event(31)).sequence()).isEqualTo(31);
      assertThat(log.verify().firstBadSequence()).isEqualTo(18);
    }
    byte[] after = Files.readAllBytes(logFile(folder));
    assertThat(Arrays.copyOf(after, evidence.length)).isEqualTo(evidence);
  }

  @Test
  void truncatedMidLineIsMovedAsideAndReported() throws Exception {
    byte[] whole = Files.readAllBytes(logFile(folder));
    int lastLineStart = lastLineStart(whole);
    int cut = lastLineStart + (whole.length - lastLineStart) / 2;
    byte[] torn = Arrays.copyOfRange(whole, lastLineStart, cut);
    Files.write(logFile(folder), Arrays.copyOf(whole, cut), StandardOpenOption.TRUNCATE_EXISTING);

    try (LogCapture capture = new LogCapture(AuditFile.class);
        FileAuditLog log = open(folder, secrets)) {
      assertThat(capture.atLeast(Level.WARNING))
          .singleElement()
          .asString()
          .contains("record 30 torn")
          .contains("at byte offset " + lastLineStart);
      Path aside = folder.resolve("audit.jsonl." + lastLineStart + ".torn");
      assertThat(Files.readAllBytes(aside)).isEqualTo(torn);

      AuditVerification verdict = log.verify();
      assertThat(verdict.intact()).isFalse();
      assertThat(verdict.firstBadSequence()).isEqualTo(30);
      assertThat(verdict.problem())
          .startsWith("record 30 torn: " + torn.length + " bytes at byte offset " + lastLineStart)
          .contains(aside.toString());

      var records = log.search(AuditQuery.first(100));
      assertThat(records).hasSize(30);
      assertThat(records.get(29).event().action()).isEqualTo(FileAuditLog.TORN_TAIL_ACTION);
      assertThat(records.get(29).event().details())
          .containsEntry("offset", Long.toString(lastLineStart))
          .containsEntry("lastIntactSequence", "29");
      assertThat(log.append(event(31)).sequence()).isEqualTo(31);
    }
    try (FileAuditLog log = open(folder, secrets)) {
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(31));
    }
    try (Stream<Path> files = Files.list(folder)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder(
              "audit.jsonl", "audit.jsonl.anchor", "audit.jsonl." + lastLineStart + ".torn");
    }
  }

  private void assertVerdict(long firstBad, String problem) throws Exception {
    AuditVerification verdict = verdict();
    assertThat(verdict.intact()).isFalse();
    assertThat(verdict.firstBadSequence()).isEqualTo(firstBad);
    assertThat(verdict.problem()).isEqualTo(problem);
  }

  private AuditVerification verdict() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      return log.verify();
    }
  }

  private static int lastLineStart(byte[] whole) {
    for (int i = whole.length - 2; i >= 0; i--) {
      if (whole[i] == '\n') {
        return i + 1;
      }
    }
    return 0;
  }

  private static byte[] bytes(String line) {
    return line.getBytes(StandardCharsets.UTF_8);
  }
}
