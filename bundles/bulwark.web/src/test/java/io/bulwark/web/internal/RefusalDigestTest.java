package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A flood of refused requests costs the audit log one record per client and minute, not one per
 * request: the first refusal is recorded at once, the rest with their count when the minute ends.
 */
class RefusalDigestTest {
  private final RecordingAuditLog audit = new RecordingAuditLog();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
  private final RefusalDigest digest = new RefusalDigest(() -> audit, clock);

  @Test
  void oneClientsFloodIsOneRecordAtOnceAndOneWithTheCountWhenTheMinuteEnds() {
    for (int i = 0; i < 969; i++) {
      digest.refused("anonymous", "10.9.9.9", "POST /api/v1/tokens/" + i, "log in first");
      clock.advance(Duration.ofMillis(50));
      digest.flush();
    }
    assertThat(audit.records).hasSize(1);
    AuditRecord first = audit.records.get(0);
    assertThat(first.event().target()).isEqualTo("POST /api/v1/tokens/0");
    assertThat(first.event().outcome()).isEqualTo(AuditOutcome.DENIED);

    clock.advance(Duration.ofSeconds(15));
    digest.flush();
    assertThat(audit.records).hasSize(2);
    AuditRecord summary = audit.records.get(1);
    assertThat(summary.event().action()).isEqualTo("api.refused");
    assertThat(summary.event().source()).isEqualTo("10.9.9.9");
    assertThat(summary.event().details())
        .containsEntry("count", "968")
        .containsEntry("firstRequest", "POST /api/v1/tokens/0")
        .containsEntry("lastRequest", "POST /api/v1/tokens/968");

    // the next minute starts afresh with a record at once
    digest.refused("anonymous", "10.9.9.9", "POST /api/v1/users", "log in first");
    assertThat(audit.records).hasSize(3);
  }

  @Test
  void manyClientsAreFollowedUpToTheCapAndTheRestCountedTogether() {
    int clients = RefusalDigest.MAX_CLIENTS + 500;
    for (int i = 0; i < clients; i++) {
      digest.refused("anonymous", "10.1." + (i / 256) + "." + (i % 256), "POST /x", "log in first");
      digest.refused("anonymous", "10.1." + (i / 256) + "." + (i % 256), "POST /y", "log in first");
    }
    assertThat(digest.followed()).isEqualTo(RefusalDigest.MAX_CLIENTS);
    assertThat(audit.records).hasSize(RefusalDigest.MAX_CLIENTS);
    clock.advance(Duration.ofMinutes(2));
    digest.flush();
    List<AuditRecord> others =
        audit.records.stream().filter(r -> r.event().source().equals("other clients")).toList();
    assertThat(others).hasSize(1);
    assertThat(others.get(0).event().details()).containsEntry("count", "1000");
    assertThat(audit.records).hasSize(2 * RefusalDigest.MAX_CLIENTS + 1);
    assertThat(digest.followed()).isZero();
  }

  @Test
  void whatTheClientChoseIsCutTo200CharactersInEveryRecord() {
    String path = "POST /api/v1/" + "p".repeat(4000);
    digest.refused("anonymous", "10.9.9.9", path, "log in first: " + path);
    digest.refused("anonymous", "10.9.9.9", path, "log in first: " + path);
    clock.advance(Duration.ofMinutes(2));
    digest.flush();

    assertThat(audit.records).hasSize(2);
    AuditRecord first = audit.records.get(0);
    assertThat(first.event().target())
        .startsWith("POST /api/v1/ppp")
        .endsWith("… (4013 characters)")
        .hasSizeLessThan(RefusalDigest.MAX_TEXT + 30);
    assertThat(first.event().details().get("reason")).hasSizeLessThan(RefusalDigest.MAX_TEXT + 30);
    assertThat(audit.records.get(1).event().details().values())
        .allMatch(v -> v.length() < RefusalDigest.MAX_TEXT + 30);
  }

  /** A clock the test moves. */
  static final class MutableClock extends Clock {
    private Instant now;

    MutableClock(Instant start) {
      this.now = start;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

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
      return now;
    }
  }
}
