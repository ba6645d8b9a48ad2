package io.bulwark.bmc.redfish.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.PowerAction;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.PowerState;
import io.bulwark.testing.FipsProviders;
import io.bulwark.testing.receivers.TestCertificates;
import io.bulwark.testing.redfish.RedfishMockupServer;
import io.bulwark.testing.redfish.RedfishMockups;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A blade enclosure's BMC, built on the DMTF rackmount mockup (a test double; no real BMC runs
 * here): one manager, four systems, an enclosure chassis with 8 fans, 2 power supplies and an inlet
 * temperature, and four blade chassis, each with a temperature and contained by the enclosure.
 * Without a system named the driver reads every chassis (5 temperatures, 8 fans, 2 power supplies);
 * with system 3 named it reads that blade's chassis and the enclosure, and its power actions go to
 * system 3.
 */
class BladeEnclosureTest {
  private static final String USER = "bulwark";
  private static final String PASSWORD = "Bmc-Pass-42";
  private static final String MOCKUP_SYSTEM = "/redfish/v1/Systems/437XR1138R2";
  private static final String ENCLOSURE = "/redfish/v1/Chassis/Enclosure";

  @TempDir static Path certs;
  private static TestCertificates tls;
  private static String pin;
  private RedfishMockupServer bmc;
  private final RedfishDriver driver =
      RedfishDriver.withTimeouts(
          Duration.ofSeconds(2),
          Duration.ofSeconds(2),
          Duration.ofSeconds(2),
          Duration.ofSeconds(3));

  @BeforeAll
  static void providers() throws Exception {
    FipsProviders.install();
    tls = TestCertificates.create(certs);
    pin = tls.serverSha256();
  }

  @BeforeEach
  void enclosure() {
    bmc =
        RedfishMockupServer.start(RedfishMockups.mockup("public-rackmount1"), tls, USER, PASSWORD);
    JsonObject template = bmc.get(MOCKUP_SYSTEM);
    JsonArray systems = new JsonArray();
    JsonArray chassis = new JsonArray().add(link(ENCLOSURE));
    JsonArray blades = new JsonArray();
    for (int n = 1; n <= 4; n++) {
      String system = "/redfish/v1/Systems/" + n;
      String blade = "/redfish/v1/Chassis/Blade" + n;
      systems.add(link(system));
      chassis.add(link(blade));
      blades.add(link(blade));
      JsonObject s = template.copy();
      s.put("@odata.id", system)
          .put("Id", Integer.toString(n))
          .put("SerialNumber", "BLADE-" + n)
          .put("PowerState", "On")
          .put("Links", new JsonObject().put("Chassis", new JsonArray().add(link(blade))));
      s.getJsonObject("Actions")
          .getJsonObject("#ComputerSystem.Reset")
          .put("target", system + "/Actions/ComputerSystem.Reset");
      bmc.put(system, s);
      bmc.put(
          blade,
          new JsonObject()
              .put("@odata.id", blade)
              .put("Id", "Blade" + n)
              .put("Name", "Blade " + n)
              .put("ChassisType", "Blade")
              .put("Thermal", link(blade + "/Thermal"))
              .put(
                  "Links",
                  new JsonObject()
                      .put("ComputerSystems", new JsonArray().add(link(system)))
                      .put("ContainedBy", link(ENCLOSURE))));
      bmc.put(
          blade + "/Thermal",
          new JsonObject()
              .put("@odata.id", blade + "/Thermal")
              .put(
                  "Temperatures",
                  new JsonArray().add(temperature("Blade " + n + " CPU Temp", 50 + n))));
    }
    JsonArray fans = new JsonArray();
    for (int f = 1; f <= 8; f++) {
      fans.add(
          new JsonObject()
              .put("Name", "Enclosure Fan " + f)
              .put("Reading", 6000 + f)
              .put("ReadingUnits", "RPM")
              .put("Status", new JsonObject().put("Health", "OK")));
    }
    bmc.put(
        ENCLOSURE,
        new JsonObject()
            .put("@odata.id", ENCLOSURE)
            .put("Id", "Enclosure")
            .put("Name", "Blade Enclosure")
            .put("ChassisType", "Enclosure")
            .put("Thermal", link(ENCLOSURE + "/Thermal"))
            .put("Power", link(ENCLOSURE + "/Power"))
            .put("Links", new JsonObject().put("Contains", blades)));
    bmc.put(
        ENCLOSURE + "/Thermal",
        new JsonObject()
            .put("@odata.id", ENCLOSURE + "/Thermal")
            .put("Temperatures", new JsonArray().add(temperature("Enclosure Inlet Temp", 24)))
            .put("Fans", fans));
    bmc.put(
        ENCLOSURE + "/Power",
        new JsonObject()
            .put("@odata.id", ENCLOSURE + "/Power")
            .put(
                "PowerSupplies",
                new JsonArray()
                    .add(new JsonObject().put("Name", "PSU 1").put("LastPowerOutputWatts", 1800))
                    .add(new JsonObject().put("Name", "PSU 2").put("LastPowerOutputWatts", 1750))));
    bmc.overlay(
        "/redfish/v1/Systems",
        new JsonObject().put("Members", systems).put("Members@odata.count", 4));
    bmc.overlay(
        "/redfish/v1/Chassis",
        new JsonObject().put("Members", chassis).put("Members@odata.count", 5));
  }

  @AfterEach
  void stop() {
    bmc.close();
  }

  private static JsonObject link(String path) {
    return new JsonObject().put("@odata.id", path);
  }

  private static JsonObject temperature(String name, double celsius) {
    return new JsonObject()
        .put("Name", name)
        .put("ReadingCelsius", celsius)
        .put("UpperThresholdCritical", 90)
        .put("Status", new JsonObject().put("Health", "OK"));
  }

  private BmcConnection connect(String system) throws Exception {
    return driver.connect(
        new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", bmc.port(), "machine.bmc.e", pin, system),
        new BmcCredentials(USER, PASSWORD.toCharArray()));
  }

  private static List<String> names(List<BmcSensor> sensors, BmcSensor.Kind kind) {
    return sensors.stream().filter(s -> s.kind() == kind).map(BmcSensor::name).toList();
  }

  @Test
  void withoutASystemNamedEveryChassisIsReadOnce() throws Exception {
    List<BmcSensor> sensors;
    try (BmcConnection c = connect("")) {
      assertThat(c.identity().serial()).as("the first system, as before").isEqualTo("BLADE-1");
      sensors = c.sensors();
    }
    assertThat(names(sensors, BmcSensor.Kind.TEMPERATURE))
        .containsExactlyInAnyOrder(
            "Blade 1 CPU Temp",
            "Blade 2 CPU Temp",
            "Blade 3 CPU Temp",
            "Blade 4 CPU Temp",
            "Enclosure Inlet Temp");
    assertThat(names(sensors, BmcSensor.Kind.FAN)).hasSize(8).doesNotHaveDuplicates();
    assertThat(names(sensors, BmcSensor.Kind.POWER_SUPPLY)).containsExactly("PSU 1", "PSU 2");
    assertThat(sensors).hasSize(15);
    assertThat(bmc.requests())
        .as("each chassis read once")
        .filteredOn(r -> r.equals("GET " + ENCLOSURE))
        .hasSize(1);
    assertThat(bmc.requests()).noneMatch(r -> r.equals("GET /redfish/v1/Chassis/1U"));
  }

  @Test
  void systemThreeNamedReadsItsBladeAndTheEnclosureAndPowersSystemThree() throws Exception {
    try (BmcConnection c = connect("3")) {
      assertThat(c.identity().serial()).isEqualTo("BLADE-3");
      List<BmcSensor> sensors = c.sensors();
      assertThat(names(sensors, BmcSensor.Kind.TEMPERATURE))
          .containsExactly("Blade 3 CPU Temp", "Enclosure Inlet Temp");
      assertThat(names(sensors, BmcSensor.Kind.FAN)).hasSize(8);
      assertThat(names(sensors, BmcSensor.Kind.POWER_SUPPLY)).hasSize(2);
      assertThat(sensors).hasSize(12);

      c.power(PowerAction.OFF);
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (c.power() != PowerState.OFF && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(c.power()).isEqualTo(PowerState.OFF);
    }
    assertThat(bmc.requests())
        .filteredOn(r -> r.contains("ComputerSystem.Reset"))
        .containsExactly("POST /redfish/v1/Systems/3/Actions/ComputerSystem.Reset");
    for (int n : new int[] {1, 2, 4}) {
      assertThat(bmc.get("/redfish/v1/Systems/" + n).getString("PowerState")).isEqualTo("On");
    }
    assertThat(bmc.requests())
        .noneMatch(r -> r.startsWith("GET /redfish/v1/Chassis/Blade1"))
        .noneMatch(r -> r.equals("GET /redfish/v1/Chassis"));
  }

  @Test
  void aSystemIsNamedByIdOrPathAndAnUnknownOneListsTheSystems() throws Exception {
    try (BmcConnection c = connect("/redfish/v1/Systems/2/")) {
      assertThat(c.identity().serial()).isEqualTo("BLADE-2");
    }
    assertThatThrownBy(() -> connect("9"))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("manages no system '9'")
        .hasMessageContaining("1 (/redfish/v1/Systems/1), 2 (/redfish/v1/Systems/2)")
        .hasMessageContaining("4 (/redfish/v1/Systems/4)")
        .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.UNSUPPORTED));
    assertThat(bmc.openSessions()).as("the session of the refused connection is closed").isZero();
  }
}
