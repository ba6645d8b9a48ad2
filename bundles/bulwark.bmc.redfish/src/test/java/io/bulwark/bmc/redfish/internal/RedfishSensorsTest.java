package io.bulwark.bmc.redfish.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.BmcSensor.Kind;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
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
 * Sensors classified as DSP0268 defines them, against the DMTF rackmount mockup whose chassis is
 * made to offer only its Sensors collection (a test double; no real BMC runs here): by ReadingType,
 * else ReadingUnits, else PhysicalContext; and an intake temperature read from the Sensors
 * collection is the same {@link BmcSensor} as the same reading from the older Thermal resource,
 * named so that the inlet temperature detector knows it.
 */
class RedfishSensorsTest {
  private static final String USER = "bulwark";
  private static final String PASSWORD = "Bmc-Pass-42";
  private static final String CHASSIS = "/redfish/v1/Chassis/1U";

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

  private List<BmcSensor> sensors() throws Exception {
    String pin = tls.serverSha256();
    try (BmcConnection c =
        driver.connect(
            new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", bmc.port(), "machine.bmc.s", pin),
            new BmcCredentials(USER, PASSWORD.toCharArray()))) {
      return c.sensors();
    }
  }

  private static BmcSensor named(List<BmcSensor> sensors, String name) {
    return sensors.stream()
        .filter(s -> s.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no sensor " + name + " in " + sensors));
  }

  @Test
  void theSensorsCollectionIsClassifiedByReadingTypeThenUnits() throws Exception {
    bmc.overlay(CHASSIS, new JsonObject().putNull("Thermal").putNull("Power"));
    List<BmcSensor> sensors = sensors();
    assertThat(sensors).hasSize(41);
    // No ReadingType: "Cel" makes them temperatures.
    assertThat(named(sensors, "Front Panel Intake Temperature"))
        .isEqualTo(
            new BmcSensor(
                "Front Panel Intake Temperature",
                Kind.TEMPERATURE,
                24.8,
                "Cel",
                "OK",
                Double.NaN,
                Double.NaN));
    BmcSensor cpu = named(sensors, "CPU #1 Temperature");
    assertThat(cpu.kind()).isEqualTo(Kind.TEMPERATURE);
    assertThat(cpu.upperCritical())
        .isEqualTo(
            bmc.get(CHASSIS + "/Sensors/CPU1Temp")
                .getJsonObject("Thresholds")
                .getJsonObject("UpperCritical")
                .getDouble("Reading"));
    // Percent of a fan (SpeedRPM, or a fan by its name), with its lower critical threshold.
    assertThat(named(sensors, "CPU #1 Fan Speed").kind()).isEqualTo(Kind.FAN);
    assertThat(named(sensors, "Chassis Fan #1"))
        .satisfies(
            s -> {
              assertThat(s.kind()).isEqualTo(Kind.FAN);
              assertThat(s.unit()).isEqualTo("%");
              assertThat(s.lowerCritical()).isEqualTo(0.0);
            });
    assertThat(named(sensors, "Power Supply #1 Input Power").kind()).isEqualTo(Kind.POWER);
    assertThat(named(sensors, "Power Supply #1 Input Voltage").kind()).isEqualTo(Kind.VOLTAGE);
    assertThat(named(sensors, "Power Supply #1 Frequency").kind()).isEqualTo(Kind.OTHER);
    assertThat(named(sensors, "Battery #1 State of Health").kind()).isEqualTo(Kind.OTHER);
    assertThat(sensors).filteredOn(s -> s.kind() == Kind.TEMPERATURE).hasSize(8);
    assertThat(sensors).filteredOn(s -> s.kind() == Kind.FAN).hasSize(4);
  }

  @Test
  void withoutTypeOrUnitsThePhysicalContextDecides() {
    assertThat(
            RedfishSensors.kind(
                new JsonObject().put("Reading", 3100).put("PhysicalContext", "Fan")))
        .isEqualTo(Kind.FAN);
    assertThat(RedfishSensors.kind(new JsonObject().put("ReadingUnits", "RPM")))
        .isEqualTo(Kind.FAN);
    assertThat(RedfishSensors.kind(new JsonObject().put("ReadingUnits", "W")))
        .isEqualTo(Kind.POWER);
    assertThat(RedfishSensors.kind(new JsonObject().put("ReadingUnits", "V")))
        .isEqualTo(Kind.VOLTAGE);
    assertThat(
            RedfishSensors.kind(
                new JsonObject().put("ReadingUnits", "%").put("PhysicalContext", "Fan")))
        .isEqualTo(Kind.FAN);
    assertThat(RedfishSensors.kind(new JsonObject().put("ReadingUnits", "%")))
        .isEqualTo(Kind.OTHER);
    assertThat(RedfishSensors.kind(new JsonObject().put("ReadingType", "Rotational")))
        .isEqualTo(Kind.FAN);
    assertThat(RedfishSensors.kind(new JsonObject().put("ReadingType", "Current")))
        .isEqualTo(Kind.OTHER);
  }

  @Test
  void anIntakeTemperatureIsTheSameSensorFromTheSensorsCollectionAsFromThermal() throws Exception {
    // The older shape: one entry of the chassis' Thermal resource.
    bmc.overlay(CHASSIS, new JsonObject().putNull("Power"));
    bmc.overlay(
        CHASSIS + "/Thermal",
        new JsonObject()
            .put(
                "Temperatures",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("Name", "Temp 7")
                            .put("PhysicalContext", "Intake")
                            .put("ReadingCelsius", 33.5)
                            .put("LowerThresholdCritical", 5)
                            .put("UpperThresholdCritical", 40)
                            .put("Status", new JsonObject().put("Health", "Warning")))));
    List<BmcSensor> thermal = sensors().stream().filter(s -> s.kind() == Kind.TEMPERATURE).toList();

    // The newer shape: the same reading as the only member of the Sensors collection.
    bmc.overlay(CHASSIS, new JsonObject().putNull("Thermal"));
    bmc.put(
        CHASSIS + "/Sensors",
        new JsonObject()
            .put("@odata.id", CHASSIS + "/Sensors")
            .put(
                "Members",
                new JsonArray().add(new JsonObject().put("@odata.id", CHASSIS + "/Sensors/T7"))));
    bmc.put(
        CHASSIS + "/Sensors/T7",
        new JsonObject()
            .put("@odata.id", CHASSIS + "/Sensors/T7")
            .put("Id", "T7")
            .put("Name", "Temp 7")
            .put("PhysicalContext", "Intake")
            .put("Reading", 33.5)
            .put("ReadingUnits", "Cel")
            .put(
                "Thresholds",
                new JsonObject()
                    .put("LowerCritical", new JsonObject().put("Reading", 5))
                    .put("UpperCritical", new JsonObject().put("Reading", 40)))
            .put("Status", new JsonObject().put("Health", "Warning")));
    List<BmcSensor> collection = sensors();

    BmcSensor expected =
        new BmcSensor("Temp 7 (Intake)", Kind.TEMPERATURE, 33.5, "Cel", "Warning", 5, 40);
    assertThat(thermal).containsExactly(expected);
    assertThat(collection).containsExactly(expected);
  }
}
