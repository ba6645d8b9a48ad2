package io.bulwark.bmc.redfish.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.PowerState;
import io.bulwark.testing.FipsProviders;
import io.bulwark.testing.receivers.TestCertificates;
import io.bulwark.testing.redfish.RedfishMockupServer;
import io.bulwark.testing.redfish.RedfishMockups;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Redfish login as BMCs answer it, against the rackmount mockup (a test double, no real BMC
 * runs here): any 2xx with an {@code X-Auth-Token} is a session (DMTF's own mockup server answers
 * 204 with no body), every other answer falls back to HTTP Basic, and where Basic is refused or
 * busy too the error says what the login and Basic each answered.
 */
class RedfishLoginTest {
  private static final String USER = "bulwark";
  private static final String PASSWORD = "Bmc-Pass-42";
  private static final String SESSIONS = "/redfish/v1/SessionService/Sessions";

  @TempDir static Path certs;
  private static TestCertificates tls;
  private RedfishMockupServer bmc;
  private final RedfishDriver driver =
      RedfishDriver.withTimeouts(
          Duration.ofSeconds(2),
          Duration.ofSeconds(2),
          Duration.ofSeconds(1),
          Duration.ofSeconds(1));

  @BeforeAll
  static void providers() {
    FipsProviders.install();
    tls = TestCertificates.create(certs);
  }

  @BeforeEach
  void start() {
    bmc =
        RedfishMockupServer.start(RedfishMockups.mockup("public-rackmount1"), tls, USER, PASSWORD);
  }

  @AfterEach
  void stop() {
    bmc.close();
  }

  private BmcConnection connect(String password) throws Exception {
    String pin = tls.serverSha256();
    return driver.connect(
        new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", bmc.port(), "machine.bmc.l", pin),
        new BmcCredentials(USER, password.toCharArray()));
  }

  /** The credential each request after the login carried. */
  private List<String> carriedAfterLogin() {
    List<String> requests = bmc.requests();
    int login = requests.indexOf("POST " + SESSIONS);
    assertThat(login).as("a session login was tried").isNotNegative();
    return bmc.credentialsCarried().subList(login + 1, requests.size());
  }

  @Test
  void aLoginAnswered204WithATokenAndNoBodyIsASession() throws Exception {
    bmc.dmtfSessions(true);
    try (BmcConnection c = connect(PASSWORD)) {
      assertThat(c.power()).isEqualTo(PowerState.ON);
      assertThat(bmc.openSessions()).isEqualTo(1);
    }
    String token = bmc.tokensIssued().get(0);
    assertThat(carriedAfterLogin()).isNotEmpty().containsOnly("X-Auth-Token " + token);
    assertThat(bmc.openSessions()).as("logged out").isZero();
    assertThat(bmc.requests()).last().asString().startsWith("DELETE " + SESSIONS + "/");
  }

  @ParameterizedTest
  @ValueSource(ints = {200, 201, 204, 400, 401, 403, 404, 405, 500, 501, 503})
  void anyOtherLoginAnswerFallsBackToHttpBasic(int status) throws Exception {
    bmc.sessionLogins(status);
    try (BmcConnection c = connect(PASSWORD)) {
      assertThat(c.power()).isEqualTo(PowerState.ON);
      assertThat(c.identity().serial()).isEqualTo("437XR1138R2");
    }
    assertThat(carriedAfterLogin()).isNotEmpty().containsOnly("Basic");
    assertThat(bmc.openSessions()).isZero();
    assertThat(bmc.requests()).noneMatch(r -> r.startsWith("DELETE"));
  }

  @Test
  void refusedByTheLoginAndByHttpBasicIsACredentialsErrorNamingBoth() {
    assertThatThrownBy(() -> connect("wrong"))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("BMC redfish 127.0.0.1:" + bmc.port())
        .hasMessageContaining("refused the credentials")
        .hasMessageContaining("the session login answered 401 (Invalid user name or password.)")
        .hasMessageContaining("HTTP Basic was refused too")
        .hasMessageContaining("check the user name and password stored for the machine")
        .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.CREDENTIALS))
        .satisfies(e -> assertThat(((BmcException) e).retryable()).isFalse());
    assertThat(bmc.credentialsCarried()).contains("Basic");
  }

  @Test
  void aLoginWithoutSessionServiceAndBasicRefusedIsACredentialsError() {
    bmc.sessionLogins(405);
    bmc.basicAnswers(403);
    assertThatThrownBy(() -> connect(PASSWORD))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("the session login answered 405")
        .hasMessageContaining("HTTP Basic was refused too")
        .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.CREDENTIALS));
  }

  @Test
  void aBusyLoginFallsBackToBasicAndIsBusyWhereBasicIsBusyToo() throws Exception {
    bmc.sessionLogins(503);
    bmc.basicAnswers(503);
    assertThatThrownBy(() -> connect(PASSWORD))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("is busy: the session login answered 503")
        .hasMessageContaining("HTTP Basic was answered 503 too")
        .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.BUSY))
        .satisfies(e -> assertThat(((BmcException) e).retryable()).isTrue());
    bmc.basicAnswers(0);
    try (BmcConnection c = connect(PASSWORD)) {
      assertThat(c.power()).isEqualTo(PowerState.ON);
    }
  }
}
