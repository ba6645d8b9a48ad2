package io.bulwark.pxe.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.provisioning.BootPurpose;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The boot token table cannot grow without bound, whoever asks for scripts and how often. */
class BootTokensTest {
  private Instant now = Instant.parse("2026-12-07T10:00:00Z");
  private final Clock clock =
      new Clock() {
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
      };
  private final BootTokens tokens = new BootTokens(Duration.ofMinutes(30), clock);

  private static String invented(int i) {
    return String.format(
        Locale.ROOT, "02:00:00:%02x:%02x:%02x", i >> 16 & 0xff, i >> 8 & 0xff, i & 0xff);
  }

  @Test
  void enlistmentsKeepTheirNewestTokensAndKnownMachinesKeepTheirs() {
    String known = tokens.issue("52:54:00:0a:00:01", BootPurpose.COMMISSION);
    List<String> issued = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      issued.add(tokens.issue(invented(i), BootPurpose.ENLIST));
    }
    assertThat(tokens.enlisting()).isEqualTo(BootTokens.MAX_ENLISTING);
    assertThat(tokens.size()).isEqualTo(BootTokens.MAX_ENLISTING + 1);
    assertThat(tokens.redeem(issued.get(0), invented(0), BootPurpose.ENLIST))
        .as("the oldest enlistment's token was dropped")
        .isEqualTo("unknown or used boot token");
    assertThat(tokens.redeem(issued.get(4_999), invented(4_999), BootPurpose.ENLIST)).isNull();
    assertThat(tokens.redeem(known, "52:54:00:0a:00:01", BootPurpose.COMMISSION)).isNull();
  }

  @Test
  void oneMacKeepsItsNewestTokensAndExpiredOnesAreSwept() {
    List<String> issued = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      issued.add(tokens.issue("52:54:00:0a:00:01", BootPurpose.COMMISSION));
    }
    assertThat(tokens.size()).isEqualTo(BootTokens.PER_MAC);
    assertThat(tokens.check(issued.get(0), "52:54:00:0a:00:01")).isEqualTo("unknown boot token");
    assertThat(tokens.check(issued.get(99), "52:54:00:0a:00:01")).isNull();

    for (int i = 0; i < 500; i++) {
      tokens.issue(invented(i), BootPurpose.ENLIST);
    }
    now = now.plus(Duration.ofMinutes(31));
    tokens.issue(invented(1_000), BootPurpose.ENLIST);
    assertThat(tokens.size()).as("the expired ones swept").isEqualTo(1);
    assertThat(tokens.enlisting()).isEqualTo(1);
  }
}
