package io.bulwark.audit.internal;

import static io.bulwark.audit.internal.AuditFixture.logFile;
import static io.bulwark.audit.internal.AuditFixture.open;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditQuery;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.api.audit.AuditVerification;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Given a child JVM appending as fast as it can, when it is killed with SIGKILL after at least 300
 * acknowledged records, then every acknowledged record is in the reopened log, the chain verifies,
 * and a torn tail (forced in the second case) is detected, reported and moved aside.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrashTest {
  private static final int ACKS_BEFORE_KILL = 300;

  @TempDir static Path work;
  private static final byte[] KEY = new byte[AuditKeys.HMAC_KEY_BYTES];
  private static final TreeSet<Long> acked = new TreeSet<>();
  private static Path crashed;

  @BeforeAll
  static void appendUntilKilled() throws Exception {
    FipsCrypto.drbg().nextBytes(KEY);
    crashed = work.resolve("crashed");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child =
        new ProcessBuilder(
                java.toString(),
                "-Dorg.bouncycastle.fips.approved_only=true",
                "-cp",
                System.getProperty("java.class.path"),
                CrashingAppender.class.getName(),
                crashed.toString(),
                HexFormat.of().formatHex(KEY))
            .redirectError(work.resolve("child.err").toFile())
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith("acked ")) {
          acked.add(Long.parseLong(line.substring(6)));
        }
        if (acked.size() == ACKS_BEFORE_KILL) {
          // SIGKILL through the process handle, which (unlike Process.destroyForcibly) leaves the
          // pipe open, so that acknowledgements already printed are still read and checked.
          child.toHandle().destroyForcibly();
        }
      }
    } finally {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
    assertThat(acked)
        .as("acks before the kill; child stderr: %s", Files.readString(work.resolve("child.err")))
        .hasSizeGreaterThanOrEqualTo(ACKS_BEFORE_KILL);
    assertThat(child.exitValue()).as("killed, not finished").isNotZero();
    System.out.printf(
        "crash test: child killed after %d acks; %d acks read in all (last %d), log %d bytes%n",
        ACKS_BEFORE_KILL, acked.size(), acked.last(), Files.size(logFile(crashed)));
  }

  @Test
  void everyAcknowledgedRecordSurvivesTheKill() throws Exception {
    Path folder = copy("plain");

    try (FileAuditLog log = open(folder, InMemorySecretStore.with(AuditKeys.HMAC_NAME, KEY))) {
      AuditVerification verdict = log.verify();
      assertThat(verdict.intact()).as(verdict.problem()).isTrue();
      assertPresent(log.search(AuditQuery.first(100_000)));
      assertThat(log.append(AuditFixture.event(0)).sequence())
          .isEqualTo(verdict.recordsChecked() + 1);
    }
  }

  @Test
  void tornTailAfterTheKillIsDetectedAndKept() throws Exception {
    Path folder = copy("torn");
    List<String> lines = AuditFixture.lines(folder);
    String last = lines.get(lines.size() - 1);
    byte[] half =
        last.replace("\"seq\":" + lines.size() + ",", "\"seq\":" + (lines.size() + 1) + ",")
            .substring(0, last.length() / 2)
            .getBytes(StandardCharsets.UTF_8);
    long offset = Files.size(logFile(folder));
    Files.write(logFile(folder), half, StandardOpenOption.APPEND);

    try (LogCapture capture = new LogCapture(AuditFile.class);
        FileAuditLog log = open(folder, InMemorySecretStore.with(AuditKeys.HMAC_NAME, KEY))) {
      assertThat(capture.atLeast(Level.WARNING))
          .singleElement()
          .asString()
          .contains("record " + (lines.size() + 1) + " torn")
          .contains("at byte offset " + offset);
      assertThat(Files.readAllBytes(folder.resolve("audit.jsonl." + offset + ".torn")))
          .isEqualTo(half);
      AuditVerification verdict = log.verify();
      assertThat(verdict.intact()).isFalse();
      assertThat(verdict.firstBadSequence()).isEqualTo(lines.size() + 1);
      assertThat(verdict.problem()).contains("torn").contains("byte offset " + offset);

      List<AuditRecord> records = log.search(AuditQuery.first(100_000));
      assertPresent(records);
      assertThat(records.get(records.size() - 1).event().action())
          .isEqualTo(FileAuditLog.TORN_TAIL_ACTION);
    }
    try (FileAuditLog log = open(folder, InMemorySecretStore.with(AuditKeys.HMAC_NAME, KEY))) {
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(lines.size() + 1));
    }
  }

  private static void assertPresent(List<AuditRecord> records) {
    TreeSet<Long> present = new TreeSet<>();
    records.forEach(r -> present.add(r.sequence()));
    assertThat(present).containsAll(acked);
    assertThat(present.first()).isEqualTo(1);
    assertThat(present.last()).isEqualTo((long) present.size());
  }

  private static Path copy(String name) throws IOException {
    Path target = Files.createDirectories(work.resolve(name));
    try (Stream<Path> files = Files.list(crashed)) {
      for (Path f : files.toList()) {
        Files.copy(f, target.resolve(f.getFileName()));
      }
    }
    return target;
  }
}
