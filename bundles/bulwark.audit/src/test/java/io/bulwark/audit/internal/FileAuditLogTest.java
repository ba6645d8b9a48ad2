package io.bulwark.audit.internal;

import static io.bulwark.audit.internal.AuditFixture.appendAll;
import static io.bulwark.audit.internal.AuditFixture.event;
import static io.bulwark.audit.internal.AuditFixture.logFile;
import static io.bulwark.audit.internal.AuditFixture.open;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditQuery;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.audit.AuditVerification;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.testing.TypedConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileAuditLogTest {
  @TempDir Path folder;
  private final InMemorySecretStore secrets = new InMemorySecretStore();

  @Test
  void appendReturnsTheDurableRecordWithTheNextSequence() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      AuditRecord first = log.append(event(1));
      AuditRecord second = log.append(event(2));

      assertThat(first.sequence()).isEqualTo(1);
      assertThat(second.sequence()).isEqualTo(2);
      assertThat(first.event()).isEqualTo(event(1));
      assertThat(AuditFixture.lines(folder)).hasSize(2);
      assertThat(secrets.get(AuditKeys.HMAC_NAME)).get().extracting(k -> k.length).isEqualTo(32);
    }
  }

  @Test
  void searchPagesInSequenceOrder() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      appendAll(log, 700);

      List<Long> seen = new ArrayList<>();
      long after = 0;
      List<AuditRecord> page;
      do {
        page = log.search(query(Optional.empty(), Optional.empty(), after, 64));
        page.forEach(r -> seen.add(r.sequence()));
        after = page.isEmpty() ? after : page.get(page.size() - 1).sequence();
      } while (page.size() == 64);

      assertThat(seen).hasSize(700).isSorted().doesNotHaveDuplicates();
      assertThat(seen.get(0)).isEqualTo(1);
      assertThat(log.search(query(Optional.empty(), Optional.empty(), 650, 10)))
          .extracting(AuditRecord::sequence)
          .containsExactly(651L, 652L, 653L, 654L, 655L, 656L, 657L, 658L, 659L, 660L);
      assertThat(log.search(query(Optional.empty(), Optional.empty(), 700, 10))).isEmpty();
    }
  }

  @Test
  void searchFiltersByActorActionOutcomeAndTime() throws Exception {
    try (FileAuditLog log = open(folder, secrets, AuditFixture.steppingClock())) {
      appendAll(log, 30);
      List<AuditRecord> all = log.search(AuditQuery.first(100));

      List<AuditRecord> aliceDenied =
          log.search(
              new AuditQuery(
                  Optional.empty(),
                  Optional.empty(),
                  Optional.of("alice"),
                  Optional.empty(),
                  Optional.of(AuditOutcome.DENIED),
                  0,
                  100));
      Instant from = all.get(9).at();
      Instant to = all.get(14).at();
      List<AuditRecord> window = log.search(query(Optional.of(from), Optional.of(to), 0, 100));
      List<AuditRecord> logins =
          log.search(
              new AuditQuery(
                  Optional.empty(),
                  Optional.empty(),
                  Optional.empty(),
                  Optional.of("session.login"),
                  Optional.empty(),
                  0,
                  3));

      assertThat(aliceDenied).extracting(AuditRecord::sequence).containsExactly(15L, 30L);
      assertThat(window).extracting(AuditRecord::sequence).containsExactly(10L, 11L, 12L, 13L, 14L);
      assertThat(logins).extracting(AuditRecord::sequence).containsExactly(1L, 3L, 5L);
    }
  }

  @Test
  void verifyReportsAnIntactLog() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(0));
      appendAll(log, 50);
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(50));
    }
  }

  @Test
  void restartContinuesTheSequenceAndTheChain() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      appendAll(log, 20);
    }
    try (FileAuditLog log = open(folder, secrets)) {
      assertThat(log.append(event(21)).sequence()).isEqualTo(21);
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(21));
      assertThat(log.search(AuditQuery.first(100))).hasSize(21);
    }
  }

  @Test
  void concurrentAppendsGetDistinctConsecutiveSequences() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<AuditRecord>> futures = new ArrayList<>();
      for (int i = 1; i <= 200; i++) {
        int n = i;
        futures.add(pool.submit(() -> log.append(event(n))));
      }
      Set<Long> sequences = new HashSet<>();
      for (Future<AuditRecord> f : futures) {
        sequences.add(f.get().sequence());
      }
      pool.shutdown();

      assertThat(sequences).hasSize(200).allMatch(s -> s >= 1 && s <= 200);
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(200));
    }
  }

  @Test
  void quotaReachedRefusesRoutineRecordsKeepsTheReserveForAdministratorsAndSaysWhatToDo()
      throws Exception {
    long quota = 8192;
    int accepted = 0;
    try (FileAuditLog log = open(folder, secrets, quota)) {
      assertThat(log.status().state()).isEqualTo(SubsystemState.UP);
      AuditUnavailableException refused = null;
      boolean warned = false;
      while (refused == null) {
        long before = Files.size(logFile(folder));
        try {
          log.append(routine(accepted + 1));
          accepted++;
          warned |= log.status().state() == SubsystemState.DEGRADED;
        } catch (AuditUnavailableException e) {
          refused = e;
          assertThat(Files.size(logFile(folder))).isEqualTo(before);
        }
      }
      assertThat(warned).as("degraded from 75% of the quota on").isTrue();
      assertThat(refused.getMessage())
          .startsWith("audit storage full at " + logFile(folder).toAbsolutePath())
          .contains("of its 8.0 KiB quota; the last 819 bytes is kept for logins")
          .contains("Export the log")
          .contains("BULWARK_AUDIT_MAX_BYTES");
      SubsystemStatus full = log.status();
      assertThat(full.state()).isEqualTo(SubsystemState.DOWN);
      assertThat(full.summary())
          .contains("the audit log is full")
          .contains("administrators can still log in");
      assertThat(full.action()).contains("/api/v1/audit/export");

      // a failed login (anyone can cause one) is refused; an administrator's login is recorded
      assertThatThrownBy(() -> log.append(login(AuditOutcome.FAILURE)))
          .isInstanceOf(AuditUnavailableException.class);
      assertThat(log.append(login(AuditOutcome.SUCCESS)).sequence()).isEqualTo(accepted + 1);
      accepted++;
      assertThat(Files.size(logFile(folder))).isLessThanOrEqualTo(quota);
      assertThat(log.search(AuditQuery.first(1000))).hasSize(accepted);
      assertThat(log.verify()).isEqualTo(AuditVerification.intact(accepted));
    }
    try (FileAuditLog log = open(folder, secrets, quota * 4)) {
      assertThat(log.append(routine(99)).sequence()).isEqualTo(accepted + 1);
      assertThat(log.status().state()).isEqualTo(SubsystemState.UP);
    }
  }

  private static AuditEvent routine(int i) {
    return new AuditEvent(
        "alice", "10.0.0.1", "node.power-cycle", "node-" + i, AuditOutcome.SUCCESS, Map.of());
  }

  private static AuditEvent login(AuditOutcome outcome) {
    return new AuditEvent("admin", "10.0.0.2", "session.login", "admin", outcome, Map.of());
  }

  @Test
  void unwritableFolderRefusesEveryAppend() throws Exception {
    Path notAFolder = Files.writeString(folder.resolve("occupied"), "a file, not a folder");
    try (FileAuditLog log = open(notAFolder, secrets)) {
      assertThatThrownBy(() -> log.append(event(1)))
          .isInstanceOf(AuditUnavailableException.class)
          .hasMessageContaining("cannot create the audit folder " + notAFolder.toAbsolutePath())
          .hasMessageContaining("give the Bulwark service user write access");
      assertThat(log.verify().intact()).isFalse();
      assertThat(log.verify().problem()).contains("cannot be read");
    }
  }

  @Test
  void readOnlyLogFileRefusesEveryAppend() throws Exception {
    Path file = logFile(folder);
    Files.createFile(file);
    assertThat(file.toFile().setWritable(false)).isTrue();
    org.junit.jupiter.api.Assumptions.assumeFalse(
        Files.isWritable(file), "running as root: file permissions are not enforced");
    try (FileAuditLog log = open(folder, secrets)) {
      assertThatThrownBy(() -> log.append(event(1)))
          .isInstanceOf(AuditUnavailableException.class)
          .hasMessageContaining("cannot open the audit log");
    }
  }

  @Test
  void fullDiskRefusesTheRecordAndEveryOneAfterIt() throws Exception {
    Path devFull = Path.of("/dev/full");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(devFull), "needs /dev/full");
    Files.createSymbolicLink(logFile(folder), devFull);
    try (FileAuditLog log = open(folder, secrets)) {
      assertThatThrownBy(() -> log.append(event(1)))
          .isInstanceOf(AuditUnavailableException.class)
          .hasMessageContaining("audit record 1 was not written to " + logFile(folder))
          .hasMessageContaining("No space left on device")
          .hasMessageContaining("free space on that disk");
      assertThatThrownBy(() -> log.append(event(2)))
          .isInstanceOf(AuditUnavailableException.class)
          .hasMessageContaining("may end in a partial record");
    }
  }

  @Test
  void unavailableKeyRefusesTheRecord() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      log.append(event(1));
    }
    secrets.refuse(true);
    try (FileAuditLog log = open(folder, secrets)) {
      long before = Files.size(logFile(folder));
      assertThatThrownBy(() -> log.append(event(2)))
          .isInstanceOf(AuditUnavailableException.class)
          .hasMessageContaining("the audit HMAC key 'audit.hmac' is unavailable")
          .hasMessageContaining("check the security bundle and the TPM");
      assertThat(Files.size(logFile(folder))).isEqualTo(before);
      AuditVerification verdict = log.verify();
      assertThat(verdict.intact()).isFalse();
      assertThat(verdict.problem()).contains("HMACs were not checked");
    }
  }

  @Test
  void missingKeyIsNeverReplacedWhileRecordsDependOnIt() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      log.append(event(1));
    }
    secrets.remove(AuditKeys.HMAC_NAME);
    try (FileAuditLog log = open(folder, secrets)) {
      assertThatThrownBy(() -> log.append(event(2)))
          .isInstanceOf(AuditUnavailableException.class)
          .hasMessageContaining("missing from the secret store");
      assertThat(secrets.get(AuditKeys.HMAC_NAME)).isEmpty();
    }
  }

  @Test
  void oversizedEventIsRefusedWithoutWriting() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      AuditEvent huge =
          new AuditEvent(
              "alice", "local", "x", "", AuditOutcome.SUCCESS, Map.of("blob", "y".repeat(70_000)));
      assertThatThrownBy(() -> log.append(huge)).isInstanceOf(IllegalArgumentException.class);
      assertThat(log.append(event(1)).sequence()).isEqualTo(1);
    }
  }

  @Test
  void defaultConfigurationKeepsOneGibibyteInDataAudit() {
    AuditOptions options = AuditOptions.from(TypedConfig.defaults(AuditConfig.class));
    assertThat(options.maxBytes()).isEqualTo(1L << 30);
    assertThat(options.folder()).isEqualTo(Path.of("data/audit").toAbsolutePath());
    assertThat(AuditOptions.size(options.maxBytes())).isEqualTo("1.0 GiB");
    assertThatThrownBy(
            () -> AuditOptions.from(TypedConfig.of(AuditConfig.class, Map.of("maxBytes", 0L))))
        .hasMessageContaining("maxBytes must be positive");
  }

  @Test
  void throughputWithOneSyncPerRecord() throws Exception {
    int count = 500;
    try (FileAuditLog log = open(folder, secrets)) {
      log.append(event(0));
      long start = System.nanoTime();
      appendAll(log, count);
      double seconds = (System.nanoTime() - start) / 1e9;
      double perSecond = count / seconds;
      System.out.printf(
          "audit throughput: %d appends with force(true) in %.2f s = %.0f records/s%n",
          count, seconds, perSecond);
      assertThat(perSecond).isGreaterThan(20);
    }
  }

  private static AuditQuery query(
      Optional<Instant> from, Optional<Instant> to, long after, int limit) {
    return new AuditQuery(
        from, to, Optional.empty(), Optional.empty(), Optional.empty(), after, limit);
  }
}
