package io.bulwark.bmc.redfish.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.BootDevice;
import io.bulwark.api.bmc.PowerAction;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.PowerState;
import io.bulwark.testing.FipsProviders;
import io.bulwark.testing.receivers.TestCertificates;
import io.bulwark.testing.redfish.RedfishMockupServer;
import io.bulwark.testing.redfish.RedfishMockups;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Redfish driver against the DMTF mockups served as a BMC serves them (a test double: no real
 * BMC runs here; {@link RedfishMockupServer} follows DSP0266's sessions, ETags, actions and error
 * bodies), with the FIPS module in approved-only mode as in the appliance: trust on first use,
 * sessions and logout, power with only the reset types the BMC lists, the boot override with
 * If-Match, sensors, the event log, refused credentials, a swapped certificate, a busy BMC, a
 * malformed answer, and a hung BMC that does not delay another.
 */
class RedfishDriverTest {
  private static final String USER = "bulwark";
  private static final String PASSWORD = "Bmc-Pass-42";

  @TempDir static Path certs;
  private static TestCertificates tls;
  private static TestCertificates otherTls;
  private RedfishMockupServer bmc;
  private final RedfishDriver driver =
      new RedfishDriver(
          Duration.ofSeconds(2),
          Duration.ofSeconds(2),
          Duration.ofSeconds(3),
          Duration.ofSeconds(5));

  @BeforeAll
  static void providers() {
    FipsProviders.install();
    tls = TestCertificates.create(certs.resolve("a"));
    otherTls = TestCertificates.create(certs.resolve("b"));
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

  private static String sha256(java.security.cert.X509Certificate c) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256", "SUN").digest(c.getEncoded()));
  }

  private BmcEndpoint endpoint(String pin) {
    return new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", bmc.port(), "machine.bmc.m", pin);
  }

  private BmcConnection connect() throws Exception {
    return driver.connect(
        endpoint(sha256(tls.serverCertificate())),
        new BmcCredentials(USER, PASSWORD.toCharArray()));
  }

  @Test
  void trustOnFirstUseShowsTheFingerprintAndSendsNothingUntilItIsPinned() throws Exception {
    String expected = sha256(tls.serverCertificate());
    assertThat(driver.presentedFingerprint(endpoint(""))).isEqualTo(expected);
    assertThatThrownBy(
            () -> driver.connect(endpoint(""), new BmcCredentials(USER, PASSWORD.toCharArray())))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("not pinned yet")
        .hasMessageContaining(expected)
        .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.CERTIFICATE));
    assertThat(bmc.requests()).as("no request reached the BMC, so no credential").isEmpty();
  }

  @Test
  void aSessionIsOpenedUsedAndClosed() throws Exception {
    try (BmcConnection c = connect()) {
      assertThat(bmc.openSessions()).isEqualTo(1);
      var id = c.identity();
      assertThat(id.serial()).isEqualTo("437XR1138R2");
      assertThat(id.uuid()).isEqualTo("38947555-7742-3448-3784-823347823834");
      assertThat(c.power()).isEqualTo(PowerState.ON);
    }
    assertThat(bmc.openSessions()).as("logged out").isZero();
    assertThat(bmc.requests())
        .anySatisfy(r -> assertThat(r).startsWith("DELETE /redfish/v1/SessionService/Sessions/"));
  }

  @Test
  void powerUsesOnlyTheResetTypesTheBmcListsAndACycleWithoutPowerCycleIsOffThenOn()
      throws Exception {
    try (BmcConnection c = connect()) {
      c.power(PowerAction.OFF);
      awaitPower(c, PowerState.OFF);
      c.power(PowerAction.CYCLE);
      awaitPower(c, PowerState.ON);
      c.power(PowerAction.SOFT_OFF);
      awaitPower(c, PowerState.OFF);
    }
    List<String> resets =
        bmc.requests().stream().filter(r -> r.contains("ComputerSystem.Reset")).toList();
    // public-rackmount1 lists no PowerCycle: the cycle is an On from Off (it was already off).
    assertThat(resets).hasSize(3);
  }

  @Test
  void aCycleOfARunningSystemWithoutPowerCycleIsForceOffThenOn() throws Exception {
    try (BmcConnection c = connect()) {
      assertThat(c.power()).isEqualTo(PowerState.ON);
      c.power(PowerAction.CYCLE);
      awaitPower(c, PowerState.ON);
    }
    assertThat(bmc.requests().stream().filter(r -> r.contains("ComputerSystem.Reset"))).hasSize(2);
  }

  @Test
  void aResetTypeTheBmcDoesNotListIsNeverSent() throws Exception {
    bmc.overlay(
        "/redfish/v1/Systems/437XR1138R2",
        new JsonObject()
            .put(
                "Actions",
                new JsonObject()
                    .put(
                        "#ComputerSystem.Reset",
                        new JsonObject()
                            .put(
                                "target",
                                "/redfish/v1/Systems/437XR1138R2/Actions/ComputerSystem.Reset")
                            .put(
                                "ResetType@Redfish.AllowableValues",
                                new io.vertx.core.json.JsonArray().add("On")))));
    try (BmcConnection c = connect()) {
      assertThatThrownBy(() -> c.power(PowerAction.OFF))
          .isInstanceOf(BmcException.class)
          .hasMessageContaining("lists no reset type")
          .hasMessageContaining("ForceOff");
    }
    assertThat(bmc.requests()).noneMatch(r -> r.contains("ComputerSystem.Reset"));
  }

  @Test
  void theNextBootIsPatchedWithTheETagJustReadAndAStaleOneIsRefused() throws Exception {
    try (BmcConnection c = connect()) {
      c.setNextBoot(BootDevice.DISK, true);
      JsonObject boot = bmc.get("/redfish/v1/Systems/437XR1138R2").getJsonObject("Boot");
      assertThat(boot.getString("BootSourceOverrideTarget")).isEqualTo("Hdd");
      assertThat(boot.getString("BootSourceOverrideEnabled")).isEqualTo("Once");
      assertThat(bmc.requests())
          .anySatisfy(
              r -> assertThat(r).startsWith("PATCH /redfish/v1/Systems/437XR1138R2 If-Match W/\""));
      c.setNextBoot(BootDevice.PXE, false);
      assertThat(
              bmc.get("/redfish/v1/Systems/437XR1138R2")
                  .getJsonObject("Boot")
                  .getString("BootSourceOverrideEnabled"))
          .isEqualTo("Continuous");
      assertThatThrownBy(() -> c.setNextBoot(BootDevice.HTTP, true))
          .isInstanceOf(BmcException.class)
          .hasMessageContaining("cannot boot from UefiHttp")
          .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.UNSUPPORTED));
    }
  }

  @Test
  void sensorsAndTheEventLogAreRead() throws Exception {
    try (BmcConnection c = connect()) {
      List<BmcSensor> sensors = c.sensors();
      assertThat(sensors)
          .filteredOn(s -> s.kind() == BmcSensor.Kind.TEMPERATURE)
          .isNotEmpty()
          .allSatisfy(s -> assertThat(s.unit()).isEqualTo("Cel"));
      assertThat(sensors).filteredOn(s -> s.kind() == BmcSensor.Kind.FAN).isNotEmpty();
      assertThat(sensors).anySatisfy(s -> assertThat(s.value()).isEqualTo(41.0));
      List<BmcLogEntry> log = c.eventLog(100);
      assertThat(log).hasSize(2).allSatisfy(e -> assertThat(e.message()).isNotBlank());
    }
  }

  @Test
  void refusedCredentialsSaySoAndAreNotRetried() {
    assertThatThrownBy(
            () ->
                driver.connect(
                    endpoint(sha256(tls.serverCertificate())),
                    new BmcCredentials(USER, "wrong".toCharArray())))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("refused the credentials")
        .satisfies(e -> assertThat(((BmcException) e).retryable()).isFalse());
  }

  @Test
  void aSwappedCertificateStopsEveryCallAndNamesBothFingerprints() throws Exception {
    String pinned = sha256(tls.serverCertificate());
    bmc.swapCertificate(otherTls);
    int before = bmc.requests().size();
    assertThatThrownBy(
            () ->
                driver.connect(endpoint(pinned), new BmcCredentials(USER, PASSWORD.toCharArray())))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("changed since it was pinned")
        .hasMessageContaining(pinned)
        .hasMessageContaining(sha256(otherTls.serverCertificate()));
    assertThat(bmc.requests()).hasSize(before);
  }

  @Test
  void aBusyBmcIsRetriedAfterItsRetryAfterAndAMalformedAnswerIsAProtocolError() throws Exception {
    try (BmcConnection c = connect()) {
      bmc.failNext(1, 503, 1);
      assertThat(c.power()).isEqualTo(PowerState.ON);
      bmc.malformedNext(1);
      assertThatThrownBy(c::power)
          .isInstanceOf(BmcException.class)
          .hasMessageContaining("not JSON")
          .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.PROTOCOL));
    }
  }

  @Test
  void aHungBmcTimesOutAndNeverDelaysAnother() throws Exception {
    try (RedfishMockupServer other =
            RedfishMockupServer.start(RedfishMockups.mockup("public-tower"), tls, USER, PASSWORD);
        BmcConnection c = connect()) {
      bmc.hangNext(1);
      long t0 = System.nanoTime();
      CompletableFuture<Throwable> hung =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  c.power();
                  return null;
                } catch (BmcException e) {
                  return e;
                }
              });
      BmcEndpoint towerEndpoint =
          new BmcEndpoint(
              BmcProtocol.REDFISH,
              "127.0.0.1",
              other.port(),
              "machine.bmc.t",
              sha256(tls.serverCertificate()));
      long t1 = System.nanoTime();
      try (BmcConnection tower =
          driver.connect(towerEndpoint, new BmcCredentials(USER, PASSWORD.toCharArray()))) {
        assertThat(tower.power()).isNotNull();
      }
      long otherMillis = (System.nanoTime() - t1) / 1_000_000;
      Throwable e = hung.get(10, TimeUnit.SECONDS);
      assertThat(e).isInstanceOf(BmcException.class).hasMessageContaining("did not answer");
      assertThat(((BmcException) e).kind()).isEqualTo(Kind.TIMEOUT);
      assertThat((System.nanoTime() - t0) / 1_000_000)
          .as("bounded by the request timeout")
          .isLessThan(5_000);
      assertThat(otherMillis).as("the other BMC answered while this one hung").isLessThan(1_900);
    }
  }

  @Test
  void everyPublicMockupWorksUnchanged() throws Exception {
    for (Path mockup : RedfishMockups.all()) {
      try (RedfishMockupServer server = RedfishMockupServer.start(mockup, tls, USER, PASSWORD)) {
        BmcEndpoint e =
            new BmcEndpoint(
                BmcProtocol.REDFISH,
                "127.0.0.1",
                server.port(),
                "machine.bmc.x",
                sha256(tls.serverCertificate()));
        try (BmcConnection c =
            driver.connect(e, new BmcCredentials(USER, PASSWORD.toCharArray()))) {
          assertThat(c.identity().serial()).as(mockup.toString()).isNotBlank();
          assertThat(c.power()).as(mockup.toString()).isNotEqualTo(PowerState.UNKNOWN);
          assertThat(c.sensors()).as(mockup.toString()).isNotNull();
          assertThat(c.eventLog(50)).as(mockup.toString()).isNotNull();
          assertThat(c.inventory().components()).as(mockup.toString()).isNotEmpty();
        }
        assertThat(server.openSessions()).isZero();
      }
    }
  }

  private static void awaitPower(BmcConnection c, PowerState wanted) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (c.power() != wanted) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("power never became " + wanted);
      }
      Thread.sleep(100);
    }
  }
}
