package io.bulwark.bmc.redfish.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
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
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every DMTF mockup the project holds, served as DMTF's own Redfish-Mockup-Server serves it (a test
 * double; no real BMC runs here): a login answered 204 with {@code Location} and {@code
 * X-Auth-Token} and no body, and resets accepted (204) with {@code PowerState} never changing. The
 * driver opens the session and uses its token, reads identity, power, sensors (from Thermal and
 * Power, and from the Sensors collection where those are hidden) with the kinds the mockup gives
 * them, the inventory, sets the next boot, sends ON and OFF, reports a cycle whose ForceOff never
 * takes effect as a timeout, and logs out.
 */
class DmtfMockupModesTest {
  private static final String USER = "bulwark";
  private static final String PASSWORD = "Bmc-Pass-42";
  private static final String SESSIONS = "/redfish/v1/SessionService/Sessions";

  @TempDir static Path certs;
  private static TestCertificates tls;
  private static String pin;
  private final RedfishDriver driver =
      RedfishDriver.withTimeouts(
          Duration.ofSeconds(2),
          Duration.ofSeconds(2),
          Duration.ofSeconds(1),
          Duration.ofSeconds(1));

  @BeforeAll
  static void providers() throws Exception {
    FipsProviders.install();
    tls = TestCertificates.create(certs);
    pin = tls.serverSha256();
  }

  static Stream<Path> mockups() {
    List<Path> all = RedfishMockups.all();
    assertThat(all).as("the mockups held in " + RedfishMockups.folder()).isNotEmpty();
    return all.stream();
  }

  private static RedfishMockupServer dmtf(Path mockup) {
    RedfishMockupServer server = RedfishMockupServer.start(mockup, tls, USER, PASSWORD);
    server.dmtfSessions(true);
    server.dmtfResets(true);
    return server;
  }

  private BmcConnection connect(RedfishMockupServer server) throws Exception {
    return driver.connect(
        new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", server.port(), "machine.bmc.d", pin),
        new BmcCredentials(USER, PASSWORD.toCharArray()));
  }

  @ParameterizedTest
  @MethodSource("mockups")
  void everyMockupWorksAsDmtfsServerServesIt(Path mockup) throws Exception {
    try (RedfishMockupServer server = dmtf(mockup)) {
      String system;
      PowerState before;
      try (BmcConnection c = connect(server)) {
        system = ((RedfishConnection) c).systemPath();
        assertThat(server.openSessions()).isEqualTo(1);
        assertThat(c.identity().serial()).isNotBlank();
        before = c.power();
        assertThat(before).isNotEqualTo(PowerState.UNKNOWN);
        assertSensorsAsTheMockupGivesThem(server, c.sensors());
        assertThat(c.inventory().components()).isNotEmpty();

        c.setNextBoot(BootDevice.PXE, true);
        assertThat(server.get(system).getJsonObject("Boot").getString("BootSourceOverrideTarget"))
            .isEqualTo("Pxe");

        c.power(PowerAction.ON);
        c.power(PowerAction.OFF);
        assertThat(c.power())
            .as("DMTF's server accepts resets and changes nothing")
            .isEqualTo(before);
        if (before == PowerState.ON) {
          assertThatThrownBy(() -> c.power(PowerAction.CYCLE))
              .isInstanceOf(BmcException.class)
              .hasMessageContaining("accepted ForceOff but the system was still not off after 1 s")
              .hasMessageContaining("it was not powered on again")
              .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.TIMEOUT));
        }
      }
      List<String> requests = server.requests();
      String token = server.tokensIssued().get(0);
      int login = requests.indexOf("POST " + SESSIONS);
      assertThat(server.credentialsCarried().subList(login + 1, requests.size()))
          .as("every request after the login carries its token")
          .containsOnly("X-Auth-Token " + token);
      assertThat(requests.get(requests.size() - 1)).startsWith("DELETE " + SESSIONS + "/");
      assertThat(server.openSessions()).as("logged out").isZero();
      assertThat(requests)
          .filteredOn(r -> r.startsWith("POST " + system + "/Actions/ComputerSystem.Reset"))
          .as("On, ForceOff, and the cycle's ForceOff where the system was on")
          .hasSize(before == PowerState.ON ? 3 : 2);
    }
  }

  @ParameterizedTest
  @MethodSource("mockups")
  void theSensorsCollectionGivesTheKindsItsReadingTypeAndUnitsSay(Path mockup) throws Exception {
    try (RedfishMockupServer server = dmtf(mockup)) {
      List<JsonObject> expected = new ArrayList<>();
      for (String chassis : links(server.get("/redfish/v1/Chassis"), "Members")) {
        // Thermal and Power hidden: the chassis offers only its Sensors collection.
        server.overlay(chassis, new JsonObject().putNull("Thermal").putNull("Power"));
        String list = server.get(chassis).getJsonObject("Sensors").getString("@odata.id");
        for (String member : links(server.get(list), "Members")) {
          expected.add(server.get(member));
        }
      }
      assertThat(expected).isNotEmpty();
      List<BmcSensor> read;
      try (BmcConnection c = connect(server)) {
        read = c.sensors();
      }
      assertThat(read).hasSameSizeAs(expected);
      for (JsonObject s : expected) {
        String type = s.getString("ReadingType", "");
        String units = s.getString("ReadingUnits", "");
        String name = s.getString("Name");
        BmcSensor.Kind kind =
            type.equals("Temperature") || (type.isEmpty() && units.equals("Cel"))
                ? BmcSensor.Kind.TEMPERATURE
                : type.equals("Voltage")
                    ? BmcSensor.Kind.VOLTAGE
                    : type.equals("Power")
                        ? BmcSensor.Kind.POWER
                        : type.equals("Percent") && name.contains("Fan")
                            ? BmcSensor.Kind.FAN
                            : BmcSensor.Kind.OTHER;
        double reading = s.getValue("Reading") instanceof Number n ? n.doubleValue() : Double.NaN;
        assertThat(read)
            .as(mockup.getFileName() + " " + s.getString("Id"))
            .anySatisfy(
                got -> {
                  assertThat(got.name()).startsWith(name);
                  assertThat(got.kind()).isEqualTo(kind);
                  assertThat(Double.valueOf(got.value())).isEqualTo(Double.valueOf(reading));
                });
      }
      assertThat(read)
          .filteredOn(s -> s.name().equals("Front Panel Intake Temperature"))
          .singleElement()
          .satisfies(
              s -> {
                assertThat(s.kind()).isEqualTo(BmcSensor.Kind.TEMPERATURE);
                assertThat(s.value()).isEqualTo(24.8);
                assertThat(s.unit()).isEqualTo("Cel");
              });
    }
  }

  @Test
  void theModesAreOffByDefault() throws Exception {
    try (RedfishMockupServer server =
            RedfishMockupServer.start(
                RedfishMockups.mockup("public-rackmount1"), tls, USER, PASSWORD);
        BmcConnection c = connect(server)) {
      c.power(PowerAction.OFF);
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (c.power() != PowerState.OFF && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(c.power()).isEqualTo(PowerState.OFF);
    }
  }

  /** Each sensor of every chassis' Thermal and Power resources, with the kind it is listed as. */
  private static void assertSensorsAsTheMockupGivesThem(
      RedfishMockupServer server, List<BmcSensor> read) {
    Map<String, BmcSensor.Kind> expected = new TreeMap<>();
    for (String chassis : links(server.get("/redfish/v1/Chassis"), "Members")) {
      JsonObject c = server.get(chassis);
      JsonObject thermal = resource(server, c, "Thermal");
      JsonObject power = resource(server, c, "Power");
      names(thermal, "Temperatures", BmcSensor.Kind.TEMPERATURE, expected);
      names(thermal, "Fans", BmcSensor.Kind.FAN, expected);
      names(power, "PowerControl", BmcSensor.Kind.POWER, expected);
      names(power, "Voltages", BmcSensor.Kind.VOLTAGE, expected);
      names(power, "PowerSupplies", BmcSensor.Kind.POWER_SUPPLY, expected);
    }
    assertThat(read).isNotEmpty();
    assertThat(expected).isNotEmpty();
    expected.forEach(
        (name, kind) ->
            assertThat(read)
                .as(name)
                .anySatisfy(
                    s -> {
                      assertThat(s.name()).startsWith(name);
                      assertThat(s.kind()).isEqualTo(kind);
                    }));
  }

  private static JsonObject resource(RedfishMockupServer server, JsonObject c, String field) {
    JsonObject link = c.getJsonObject(field);
    return link == null ? new JsonObject() : server.get(link.getString("@odata.id"));
  }

  private static void names(
      JsonObject resource, String array, BmcSensor.Kind kind, Map<String, BmcSensor.Kind> into) {
    for (Object o : resource.getJsonArray(array, new JsonArray())) {
      if (o instanceof JsonObject r && r.getString("Name") != null) {
        into.put(r.getString("Name"), kind);
      }
    }
  }

  private static List<String> links(JsonObject collection, String field) {
    List<String> out = new ArrayList<>();
    for (Object o : collection.getJsonArray(field, new JsonArray())) {
      if (o instanceof JsonObject l && l.getString("@odata.id") != null) {
        out.add(l.getString("@odata.id"));
      }
    }
    return out;
  }
}
