package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.SecretStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Shared test fixture: opens logs in a folder, makes events, reads and rewrites log lines. */
final class AuditFixture {
  static final long QUOTA = 1L << 30;

  private AuditFixture() {}

  static FileAuditLog open(Path folder, SecretStore secrets) {
    return open(folder, secrets, QUOTA);
  }

  static FileAuditLog open(Path folder, SecretStore secrets, long maxBytes) {
    return new FileAuditLog(new AuditOptions(folder, maxBytes), secrets, Clock.systemUTC());
  }

  static FileAuditLog open(Path folder, SecretStore secrets, Clock clock) {
    return new FileAuditLog(new AuditOptions(folder, QUOTA), secrets, clock);
  }

  static AuditEvent event(int i) {
    return new AuditEvent(
        i % 3 == 0 ? "alice" : "bob",
        "10.0.0." + (i % 7),
        i % 2 == 0 ? "node.power-cycle" : "session.login",
        "node-" + i,
        i % 5 == 0 ? AuditOutcome.DENIED : AuditOutcome.SUCCESS,
        Map.of("reason", "test \"" + i + "\", line\nbreak", "n", Integer.toString(i)));
  }

  static void appendAll(FileAuditLog log, int count) {
    for (int i = 1; i <= count; i++) {
      log.append(event(i));
    }
  }

  static Path logFile(Path folder) {
    return folder.resolve(AuditOptions.FILE_NAME);
  }

  static List<String> lines(Path folder) {
    try {
      return new ArrayList<>(Files.readAllLines(logFile(folder), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void rewrite(Path folder, List<String> lines) {
    StringBuilder text = new StringBuilder();
    lines.forEach(l -> text.append(l).append('\n'));
    try {
      Files.writeString(logFile(folder), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A clock that moves one second on every reading, from 2026-01-01T00:00:00Z. */
  static Clock steppingClock() {
    AtomicLong seconds = new AtomicLong(Instant.parse("2026-01-01T00:00:00Z").getEpochSecond());
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochSecond(seconds.getAndIncrement());
      }
    };
  }
}
