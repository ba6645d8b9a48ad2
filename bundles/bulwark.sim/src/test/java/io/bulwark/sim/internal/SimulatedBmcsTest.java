package io.bulwark.sim.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.BootDevice;
import io.bulwark.api.bmc.PowerAction;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.PowerState;
import io.bulwark.bmc.redfish.internal.RedfishDriver;
import io.bulwark.testing.FipsProviders;
import io.bulwark.testing.receivers.TestCertificates;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated BMCs as Bulwark's own Redfish driver sees them, with the FIPS module in approved
 * mode as in the appliance: each on its own loopback address, trust on first use, sessions, power
 * that follows a reset after a delay, the boot override with its ETag, sensors and event log that
 * show injected faults, refused credentials, and requests that are never answered.
 */
class SimulatedBmcsTest {
  private static final String USER = "bulwark-sim";
  private static final String PASSWORD = "Sim-test-pass-1";

  @TempDir static Path certs;
  private static TestCertificates tls;
  private static Vertx vertx;
  private SimulatedBmcs bmcs;
  private final RedfishDriver driver =
      RedfishDriver.withTimeouts(
          Duration.ofSeconds(2),
          Duration.ofSeconds(2),
          Duration.ofSeconds(3),
          Duration.ofSeconds(5));

  @BeforeAll
  static void start() {
    FipsProviders.install();
    tls = TestCertificates.create(certs);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stopVertx() {
    vertx.close();
  }

  @AfterEach
  void stop() {
    if (bmcs != null) {
      bmcs.close();
    }
  }

  private SimulatedBmcs start(List<String> nodes, long minMs, long maxMs, double hang) {
    bmcs =
        new SimulatedBmcs(
            vertx,
            nodes,
            8,
            42,
            tls.serverKeyManagersFips(),
            new SimulatedBmcs.Options(0, USER, PASSWORD, minMs, maxMs, hang, 300),
            Clock.systemUTC());
    return bmcs;
  }

  private BmcEndpoint pinned(SimulatedBmcs.Endpoint e) throws Exception {
    BmcEndpoint open = new BmcEndpoint(BmcProtocol.REDFISH, e.address(), e.port(), "", "");
    return open.pinned(driver.presentedFingerprint(open));
  }

  private BmcConnection connect(BmcEndpoint endpoint, String password) throws BmcException {
    try (BmcCredentials c = new BmcCredentials(USER, password.toCharArray())) {
      return driver.connect(endpoint, c);
    }
  }

  @Test
  void eachNodesBmcAnswersOnItsOwnAddressWithTheNodesIdentity() throws Exception {
    start(List.of("gpu-node-001", "gpu-node-002", "gpu-node-003"), 0, 0, 0);
    List<SimulatedBmcs.Endpoint> endpoints = bmcs.endpoints();

    assertThat(endpoints)
        .extracting(SimulatedBmcs.Endpoint::address)
        .containsExactly("127.0.2.1", "127.0.2.2", "127.0.2.3");
    BmcEndpoint second = pinned(endpoints.get(1));
    assertThat(second.pinnedSha256())
        .isEqualTo(SimulatedBmcs.fingerprint(tls.serverCertificate().getEncoded()));
    try (BmcConnection c = connect(second, PASSWORD)) {
      var id = c.identity();
      assertThat(id.hostname()).isEqualTo("gpu-node-002");
      assertThat(id.serial()).isEqualTo("SIM0000002");
      assertThat(id.manufacturer()).isEqualTo("Bulwark Simulator");
      assertThat(c.power()).isEqualTo(PowerState.ON);
    }
  }

  @Test
  void sensorsAndTheEventLogShowInjectedFaults() throws Exception {
    start(List.of("gpu-node-001"), 0, 0, 0);
    BmcEndpoint e = pinned(bmcs.endpoints().get(0));
    SimulatedBmc bmc = bmcs.bmc("gpu-node-001").orElseThrow();
    try (BmcConnection c = connect(e, PASSWORD)) {
      List<BmcSensor> healthy = c.sensors();
      // 2 air + 2 CPU + 8 GPU temperatures, 6 fans, 1 power control, 2 voltages, 4 supplies
      assertThat(healthy).hasSize(25);
      assertThat(healthy).allSatisfy(s -> assertThat(s.health()).isEqualTo("OK"));
      assertThat(healthy)
          .filteredOn(s -> s.kind() == BmcSensor.Kind.FAN)
          .allSatisfy(s -> assertThat(s.value()).isGreaterThan(s.lowerCritical()));
      assertThat(c.eventLog(10)).extracting(BmcLogEntry::severity).containsOnly("OK");

      bmc.fault(BmcFault.FAN_FAILED, System.currentTimeMillis());
      bmc.fault(BmcFault.PSU_FAILED, System.currentTimeMillis());
      bmc.fault(BmcFault.SEL_MEMORY_UE, System.currentTimeMillis());
      List<BmcSensor> faulty = c.sensors();
      assertThat(faulty)
          .filteredOn(s -> s.health().equals("Critical"))
          .extracting(BmcSensor::name)
          .containsExactly("Fan 3", "PSU2");
      BmcLogEntry newest = c.eventLog(10).get(0);
      assertThat(newest.severity()).isEqualTo("Critical");
      assertThat(newest.sensorType()).isEqualTo("Memory");
      assertThat(newest.message()).contains("Uncorrectable ECC");

      bmc.clearFaults();
      assertThat(c.sensors()).allSatisfy(s -> assertThat(s.health()).isEqualTo("OK"));
      assertThat(c.eventLog(10)).extracting(BmcLogEntry::severity).containsOnly("OK");
    }
  }

  @Test
  void powerAndTheNextBootFollowTheDriversRequests() throws Exception {
    start(List.of("gpu-node-001"), 0, 0, 0);
    BmcEndpoint e = pinned(bmcs.endpoints().get(0));
    SimulatedBmc bmc = bmcs.bmc("gpu-node-001").orElseThrow();
    try (BmcConnection c = connect(e, PASSWORD)) {
      c.power(PowerAction.OFF);
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (c.power() != PowerState.OFF && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(c.power()).isEqualTo(PowerState.OFF);
      assertThat(bmc.power()).isEqualTo("Off");
      assertThat(c.sensors())
          .filteredOn(s -> s.kind() == BmcSensor.Kind.FAN)
          .allSatisfy(s -> assertThat(s.value()).isNaN());

      String before = bmc.etag();
      c.setNextBoot(BootDevice.PXE, true);
      assertThat(bmc.bootTarget()).isEqualTo("Pxe");
      assertThat(bmc.bootEnabled()).isEqualTo("Once");
      assertThat(bmc.etag()).isNotEqualTo(before);

      c.power(PowerAction.CYCLE);
      deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (c.power() != PowerState.ON && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(bmc.power()).isEqualTo("On");
    }
  }

  @Test
  void wrongCredentialsAreRefused() throws Exception {
    start(List.of("gpu-node-001"), 0, 0, 0);
    BmcEndpoint e = pinned(bmcs.endpoints().get(0));

    assertThatThrownBy(() -> connect(e, "not-the-password"))
        .isInstanceOfSatisfying(
            BmcException.class, x -> assertThat(x.kind()).isEqualTo(BmcException.Kind.CREDENTIALS));
  }

  @Test
  void requestsLeftUnansweredEndInTheDriversTimeoutAndAreCounted() throws Exception {
    start(List.of("gpu-node-001"), 0, 0, 0);
    BmcEndpoint e = pinned(bmcs.endpoints().get(0));
    bmcs.close();
    start(List.of("gpu-node-001"), 0, 0, 1.0);
    BmcEndpoint hanging =
        new BmcEndpoint(
            BmcProtocol.REDFISH, e.address(), bmcs.endpoints().get(0).port(), "", e.pinnedSha256());

    long started = System.nanoTime();
    assertThatThrownBy(() -> connect(hanging, PASSWORD))
        .isInstanceOfSatisfying(
            BmcException.class, x -> assertThat(x.kind()).isEqualTo(BmcException.Kind.TIMEOUT));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    assertThat(bmcs.counts()[1]).isPositive();
  }

  @Test
  void latencyDelaysEveryAnswerWithinItsRange() throws Exception {
    start(List.of("gpu-node-001"), 300, 400, 0);
    BmcEndpoint e = pinned(bmcs.endpoints().get(0));
    try (BmcConnection c = connect(e, PASSWORD)) {
      long started = System.nanoTime();
      c.power();
      long ms = Duration.ofNanos(System.nanoTime() - started).toMillis();
      assertThat(ms).isBetween(300L, 1_500L);
    }
  }
}
