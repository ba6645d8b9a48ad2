package io.bulwark.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.system.ConnectionLimits;
import io.bulwark.runtime.internal.ListenerCap.Refusal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a listener shares its places out, decided without sockets: the known clients' share (the
 * console, addresses that authenticated recently), the share of clients past their TLS handshake,
 * and the rest, in which the connection idle longest without a handshake is closed to make room.
 */
class ListenerCapTest {
  private final MutableClock clock = new MutableClock();
  private final List<String> evicted = new ArrayList<>();

  /** 64 places: 8 kept for known clients, 8 more for clients past their handshake, 48 for all. */
  private final ListenerCap cap =
      new ListenerCap(443, new ConnectionLimits(64, 64), new KnownClients(clock), () -> {});

  @Test
  void theSharesAreAnEighthForKnownClientsAndAnEighthForClientsPastTheirHandshake() {
    assertThat(cap.othersShare()).isEqualTo(56);
    assertThat(cap.withoutHandshakeShare()).isEqualTo(48);
    ListenerCap tiny =
        new ListenerCap(1, new ConnectionLimits(4, 2), new KnownClients(clock), null);
    assertThat(tiny.othersShare()).as("too small to keep places").isEqualTo(4);
    assertThat(tiny.withoutHandshakeShare()).isEqualTo(4);
  }

  @Test
  void aFloodOfHandshakeLessConnectionsLeavesKnownClientsTheirShareUntouched() {
    // given twenty addresses that keep reopening connections that never start TLS
    for (int round = 0; round < 10; round++) {
      for (int a = 2; a <= 21; a++) {
        open("127.0.0." + a);
      }
    }
    assertThat(cap.openWithoutHandshake()).isEqualTo(48);
    assertThat(cap.counts().open()).isEqualTo(48);
    assertThat(evicted).as("flooding addresses do not take places from one another").isEmpty();
    assertThat(cap.counts().refusedOverCap()).isEqualTo(200 - 48);

    // when the console and an address that authenticated a minute ago connect
    cap.authenticated("192.0.2.7");
    clock.advance(Duration.ofMinutes(1));
    List<AdmittedConnection> known = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      known.add(open(i % 2 == 0 ? "127.0.0.1" : "192.0.2.7").admitted());
    }

    // then they take places the flood cannot, and nothing is closed for them
    assertThat(known).doesNotContainNull().allMatch(AdmittedConnection::known);
    assertThat(evicted).isEmpty();
    assertThat(cap.openKnown()).isEqualTo(8);
    assertThat(cap.counts().open()).isEqualTo(56);
    assertThat(open("127.0.0.2").refusal()).as("the flood, still").isEqualTo(Refusal.OVER_CAP);

    // and a newcomer, whose address holds nothing, takes the place idle longest
    assertThat(open("203.0.113.9").admitted()).isNotNull();
    assertThat(evicted).containsExactly("127.0.0.2");
    assertThat(cap.openWithoutHandshake()).isEqualTo(48);
  }

  @Test
  void anAddressThatHoldsMoreThanAnotherGivesUpItsOldestPlacesUntilTheyHoldAsMany() {
    for (int i = 0; i < 48; i++) {
      open("10.9.9.9");
    }
    int admitted = 0;
    for (int i = 0; i < 48; i++) {
      if (open("10.8.8.8").admitted() != null) {
        admitted++;
      }
    }
    assertThat(admitted).as("until both hold about as many").isEqualTo(24);
    assertThat(evicted).hasSize(24).containsOnly("10.9.9.9");
    assertThat(open("10.9.9.9").refusal()).isEqualTo(Refusal.OVER_CAP);
  }

  @Test
  void whenTheShareIsFullTheConnectionIdleLongestWithoutAHandshakeIsClosedFirst() {
    List<AdmittedConnection> flood = new ArrayList<>();
    for (int i = 0; i < 48; i++) {
      flood.add(open("10.0.0." + i).admitted());
    }
    // the oldest sent bytes a moment ago (a handshake under way); the second completed its own
    flood.get(0).activity();
    flood.get(1).handshakeDone();

    open("10.0.1.1");
    assertThat(evicted).as("the handshake left a place").isEmpty();
    open("10.0.1.2");
    open("10.0.1.3");
    assertThat(evicted)
        .as("idle longest, without a handshake")
        .containsExactly("10.0.0.2", "10.0.0.3");
    assertThat(cap.evicted()).isEqualTo(2);

    // a closed connection gives its place back once; an evicted one's close changes nothing
    flood.get(2).closed();
    assertThat(cap.counts().open()).isEqualTo(49);
    flood.get(4).closed();
    assertThat(cap.counts().open()).isEqualTo(48);
    open("10.0.1.4");
    assertThat(evicted).as("a place was free").hasSize(2);
  }

  @Test
  void clientsPastTheirHandshakeKeepTheLoginShareAndAreNeverClosedToMakeRoom() {
    for (int i = 0; i < 48; i++) {
      open("10.0.0." + i);
    }
    // given people logging in through the flood: each gets in, completes its handshake
    List<AdmittedConnection> logins = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      AdmittedConnection login = open("198.51.100." + i).admitted();
      login.handshakeDone();
      logins.add(login);
      open("10.0.2." + i);
    }
    assertThat(cap.counts().open()).as("the others' whole share").isEqualTo(56);
    assertThat(cap.openWithoutHandshake()).isEqualTo(48);

    // when every place of the others' share is past its handshake
    evicted.clear();
    for (int i = 0; i < 48; i++) {
      open("10.0.3." + i).admitted().handshakeDone();
    }
    assertThat(cap.openWithoutHandshake()).isZero();

    // then a new connection finds nothing to close and is refused, but a known client is not
    assertThat(open("10.0.4.1").refusal()).isEqualTo(ListenerCap.Refusal.OVER_CAP);
    assertThat(open("127.0.0.1").admitted()).isNotNull();
    assertThat(evicted).doesNotContain("198.51.100.0", "198.51.100.7").hasSize(48);
    assertThat(logins).noneMatch(c -> c.released);
  }

  @Test
  void theConsoleIsOnlyItsOwnAddressAndAnAuthenticationIsRememberedFor15Minutes() {
    KnownClients known = new KnownClients(clock);
    assertThat(known.isKnown("127.0.0.1")).isTrue();
    assertThat(known.isKnown("0:0:0:0:0:0:0:1")).isTrue();
    assertThat(known.isKnown("127.0.0.2")).as("other loopback addresses").isFalse();

    known.authenticated("192.0.2.7");
    clock.advance(Duration.ofMinutes(14));
    assertThat(known.isKnown("192.0.2.7")).isTrue();
    known.authenticated("192.0.2.8");
    clock.advance(Duration.ofMinutes(1));
    assertThat(known.isKnown("192.0.2.7")).as("15 minutes after").isFalse();
    assertThat(known.isKnown("192.0.2.8")).isTrue();
    assertThat(known.remembered()).isEqualTo(1);

    for (int i = 0; i <= KnownClients.MAX_REMEMBERED; i++) {
      known.authenticated("10.1." + (i / 256) + "." + (i % 256));
    }
    assertThat(known.remembered()).isEqualTo(KnownClients.MAX_REMEMBERED);
    assertThat(known.isKnown("192.0.2.8")).as("forgotten first").isFalse();
  }

  @Test
  void theCapPerAddressHoldsForKnownClientsToo() {
    ListenerCap small =
        new ListenerCap(443, new ConnectionLimits(64, 2), new KnownClients(clock), () -> {});
    assertThat(small.tryOpen("127.0.0.1", () -> {}).refusal()).isNull();
    AdmittedConnection second = small.tryOpen("127.0.0.1", () -> {}).admitted();
    assertThat(small.tryOpen("127.0.0.1", () -> {}).refusal())
        .isEqualTo(ListenerCap.Refusal.PER_SOURCE);
    second.closed();
    assertThat(small.tryOpen("127.0.0.1", () -> {}).refusal()).isNull();
    assertThat(small.counts().refusedPerSource()).isEqualTo(1);
  }

  private ListenerCap.Decision open(String source) {
    return cap.tryOpen(source, () -> evicted.add(source));
  }

  /** A clock the test moves. */
  private static final class MutableClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

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
