package io.bulwark.audit.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.util.HexFormat;

/**
 * The child process of {@link CrashTest}: appends records to the log in {@code args[0]} (with the
 * HMAC key given in hex in {@code args[1]}) as fast as it can and prints "acked N" after each
 * append has returned, until it is killed (or, as a bound, after 60 s or 100 000 records).
 */
public final class CrashingAppender {
  private CrashingAppender() {}

  public static void main(String[] args) throws Exception {
    InMemorySecretStore secrets =
        InMemorySecretStore.with(AuditKeys.HMAC_NAME, HexFormat.of().parseHex(args[1]));
    long deadline = System.nanoTime() + 60_000_000_000L;
    try (FileAuditLog log =
        new FileAuditLog(
            new AuditOptions(Path.of(args[0]), AuditFixture.QUOTA), secrets, Clock.systemUTC())) {
      for (int i = 1; i <= 100_000 && System.nanoTime() < deadline; i++) {
        long sequence = log.append(AuditFixture.event(i)).sequence();
        System.out.println("acked " + sequence);
        System.out.flush();
      }
    }
  }
}
