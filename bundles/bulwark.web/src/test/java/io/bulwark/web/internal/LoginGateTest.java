package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.web.internal.LoginQueue.Standing;
import io.vertx.core.Vertx;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A login the appliance could not serve (503, e.g. while the store is not running yet) is not held
 * against the client: the client still has its whole budget of attempts when the appliance can
 * answer, and is not refused with 429 for the retries it made meanwhile. An address that gave a
 * wrong password waits behind clients that have not failed until it logs in or its failure is old,
 * and so does a user name under attack, from addresses that have not logged in before.
 */
class LoginGateTest {
  private final FleetFixture fixture = new FleetFixture();
  private Vertx vertx;
  private WebServer server;
  private ApiClient anonymous;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    server = fixture.start(vertx, Listener.plainHttp(new WebOptions("127.0.0.1", 0)));
    anonymous = new ApiClient(server.port(), null);
  }

  @AfterEach
  void stop() {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void attemptsAnswered503DoNotCountAgainstTheClient() {
    fixture.accounts.storeDown = true;
    for (int i = 0; i < LoginGate.BURST * 2; i++) {
      assertThat(login(FakeAccounts.PASSWORD).statusCode()).as("attempt %d", i).isEqualTo(503);
    }
    fixture.accounts.storeDown = false;
    for (int i = 0; i < LoginGate.BURST - 1; i++) {
      assertThat(login("wrong-" + i).statusCode()).as("wrong password %d", i).isEqualTo(401);
    }
    assertThat(login(FakeAccounts.PASSWORD).statusCode())
        .as("the last attempt of the budget, after %d answered 503", LoginGate.BURST * 2)
        .isEqualTo(201);
    int answered = LoginGate.BURST;
    while (login("wrong-" + answered).statusCode() != 429 && answered < LoginGate.BURST + 5) {
      answered++;
    }
    assertThat(answered)
        .as(
            "attempts answered before the first 429 (one refills every %d s)",
            LoginGate.REFILL_SECONDS)
        .isBetween(LoginGate.BURST, LoginGate.BURST + 2);
  }

  @Test
  void aWrongPasswordPutsTheAddressBehindCleanClientsUntilItLogsInOrTheFailureIsOld() {
    RefusalDigestTest.MutableClock clock =
        new RefusalDigestTest.MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    try (LoginGate gate = new LoginGate(vertx, clock, 2)) {
      assertThat(gate.standing("10.1.1.1", "ops")).as("a new address").isEqualTo(Standing.CLEAN);
      assertThat(gate.standing("127.0.0.1", "ops")).as("the console").isEqualTo(Standing.KNOWN);
      assertThat(gate.standing("127.0.0.2", "ops"))
          .as("another loopback")
          .isEqualTo(Standing.CLEAN);

      gate.failed("10.1.1.1", "ops");
      gate.failed("127.0.0.1", "");
      assertThat(gate.standing("10.1.1.1", "auditor")).isEqualTo(Standing.FAILING);
      assertThat(gate.standing("127.0.0.1", "auditor")).isEqualTo(Standing.FAILING);
      assertThat(gate.standing("10.1.1.2", "auditor"))
          .as("its neighbour")
          .isEqualTo(Standing.CLEAN);

      gate.succeeded("127.0.0.1");
      assertThat(gate.standing("127.0.0.1", "auditor")).isEqualTo(Standing.KNOWN);
      clock.advance(Duration.ofMinutes(LoginGate.FAILURE_MEMORY_MINUTES).minusSeconds(1));
      assertThat(gate.standing("10.1.1.1", "auditor")).isEqualTo(Standing.FAILING);
      clock.advance(Duration.ofSeconds(1));
      assertThat(gate.standing("10.1.1.1", "auditor"))
          .as("after 15 minutes")
          .isEqualTo(Standing.CLEAN);
    }
  }

  @Test
  void aUserNameUnderAttackWaitsBehindCleanClientsFromNewAddressesButNotFromKnownOnes() {
    RefusalDigestTest.MutableClock clock =
        new RefusalDigestTest.MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    try (LoginGate gate = new LoginGate(vertx, clock, 2)) {
      gate.succeeded("10.2.2.2");
      gate.failed("10.1.1.1", "admin");

      assertThat(gate.standing("10.1.1.9", "admin"))
          .as("admin from a new address")
          .isEqualTo(Standing.FAILING);
      assertThat(gate.standing("10.1.1.9", "ops"))
          .as("another user from a new address")
          .isEqualTo(Standing.CLEAN);
      assertThat(gate.standing("127.0.0.1", "admin")).as("the console").isEqualTo(Standing.KNOWN);
      assertThat(gate.standing("10.2.2.2", "admin"))
          .as("an address that logged in before")
          .isEqualTo(Standing.KNOWN);
      clock.advance(Duration.ofMinutes(LoginGate.FAILURE_MEMORY_MINUTES));
      assertThat(gate.standing("10.1.1.9", "admin")).isEqualTo(Standing.CLEAN);
    }
  }

  @Test
  void failingClientsGetHalfTheCoresAndOthersOneMorePlace() {
    assertThat(LoginGate.places(1)).isEqualTo(1);
    assertThat(LoginGate.places(2)).isEqualTo(2);
    assertThat(LoginGate.places(16)).isEqualTo(9);
  }

  private HttpResponse<String> login(String password) {
    return anonymous.send(
        anonymous
            .request("/api/v1/session")
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "{\"user\":\"admin\",\"password\":\"" + password + "\"}"))
            .build());
  }
}
