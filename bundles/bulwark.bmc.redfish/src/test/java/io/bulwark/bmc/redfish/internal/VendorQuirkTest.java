package io.bulwark.bmc.redfish.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcInventory.Component;
import io.bulwark.api.bmc.BmcInventory.Kind;
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
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each entry of {@link VendorQuirk#TABLE} against the DMTF rackmount mockup dressed as that
 * vendor's BMC (an overlay of the service root's {@code Vendor} and the resources the quirk is
 * about; a test double, no real BMC runs here), and the same scenario without the vendor, so each
 * test shows the quirk changing what the driver sends or reads.
 */
class VendorQuirkTest {
  private static final String USER = "bulwark";
  private static final String PASSWORD = "Bmc-Pass-42";
  private static final String SYSTEM = "/redfish/v1/Systems/437XR1138R2";
  private static final String HPE_RESET =
      SYSTEM + "/Actions/Oem/Hpe/HpeComputerSystemExt.SystemReset";

  @TempDir static Path certs;
  private static TestCertificates tls;
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

  private BmcConnection connect() throws Exception {
    String pin = tls.serverSha256();
    return driver.connect(
        new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", bmc.port(), "machine.bmc.q", pin),
        new BmcCredentials(USER, PASSWORD.toCharArray()));
  }

  private void vendor(String vendor) {
    bmc.overlay("/redfish/v1", new JsonObject().put("Vendor", vendor));
  }

  @Test
  void everyEntryHasASourceAndATestHere() {
    assertThat(VendorQuirk.TABLE)
        .extracting(VendorQuirk::vendor)
        .as("a new entry needs its own test in this class")
        .containsExactly("HPE", "Dell", "Supermicro", "AMI");
    assertThat(VendorQuirk.TABLE).allSatisfy(q -> assertThat(q.source()).contains("http"));
  }

  @Test
  void theVendorIsTakenFromTheRootOrItsOemKeyOrTheSystemsManufacturer() {
    assertThat(VendorQuirk.of(new JsonObject().put("Vendor", "HPE"), null).vendor())
        .isEqualTo("HPE");
    assertThat(
            VendorQuirk.of(new JsonObject().put("Oem", new JsonObject().put("Hpe", 1)), null)
                .vendor())
        .isEqualTo("HPE");
    assertThat(
            VendorQuirk.of(new JsonObject(), new JsonObject().put("Manufacturer", "Dell Inc."))
                .vendor())
        .isEqualTo("Dell");
    assertThat(VendorQuirk.of(new JsonObject().put("Vendor", "Contoso"), null))
        .isSameAs(VendorQuirk.STANDARD);
    assertThat(VendorQuirk.of(null, null)).isSameAs(VendorQuirk.STANDARD);
  }

  /** The iLO OEM cold-boot action, as iLO 5/6 list it under Oem.Hpe.Actions of the system. */
  private void hpeColdBootAction() {
    bmc.overlay(
        SYSTEM,
        new JsonObject()
            .put(
                "Oem",
                new JsonObject()
                    .put(
                        "Hpe",
                        new JsonObject()
                            .put(
                                "Actions",
                                new JsonObject()
                                    .put(
                                        "#HpeComputerSystemExt.SystemReset",
                                        new JsonObject()
                                            .put("target", HPE_RESET)
                                            .put(
                                                "ResetType@Redfish.AllowableValues",
                                                new JsonArray()
                                                    .add("ColdBoot")
                                                    .add("AuxCycle")))))));
  }

  @Test
  void hpeCyclesThroughTheOemColdBootWhereTheResetListsNoPowerCycle() throws Exception {
    vendor("HPE");
    hpeColdBootAction();
    try (BmcConnection c = connect()) {
      c.power(PowerAction.CYCLE);
      awaitPower(c, PowerState.ON);
    }
    List<String> posts = bmc.requests().stream().filter(r -> r.startsWith("POST ")).toList();
    // The mockup server carries out only #ComputerSystem.Reset and answers 405 to the OEM action,
    // so the driver then cycles as off and on: the first power request is the OEM cold boot.
    assertThat(posts)
        .filteredOn(r -> !r.contains("SessionService"))
        .first()
        .isEqualTo("POST " + HPE_RESET);
  }

  @Test
  void withoutTheHpeVendorTheOemActionIsNeverSent() throws Exception {
    hpeColdBootAction();
    try (BmcConnection c = connect()) {
      c.power(PowerAction.CYCLE);
      awaitPower(c, PowerState.ON);
    }
    assertThat(bmc.requests()).noneMatch(r -> r.contains("HpeComputerSystemExt"));
    assertThat(bmc.requests()).filteredOn(r -> r.contains("ComputerSystem.Reset")).hasSize(2);
  }

  /** Dresses the firmware inventory as iDRAC names it: running and kept-for-rollback images. */
  private void dellFirmwareIds() {
    bmc.overlay(
        "/redfish/v1/UpdateService/FirmwareInventory/BIOS",
        new JsonObject().put("Id", "Installed-159-1.45__BIOS.Setup.1-1"));
    bmc.overlay(
        "/redfish/v1/UpdateService/FirmwareInventory/SS",
        new JsonObject().put("Id", "Previous-25227-2.30__RAID.Integrated.1-1"));
  }

  @Test
  void dellLeavesOutTheFirmwareKeptForARollback() throws Exception {
    vendor("Dell");
    dellFirmwareIds();
    try (BmcConnection c = connect()) {
      assertThat(c.inventory().of(Kind.FIRMWARE))
          .extracting(Component::id)
          .containsExactly("BMC", "Installed-159-1.45__BIOS.Setup.1-1");
    }
  }

  @Test
  void withoutTheDellVendorPreviousFirmwareIsListed() throws Exception {
    dellFirmwareIds();
    try (BmcConnection c = connect()) {
      assertThat(c.inventory().of(Kind.FIRMWARE))
          .extracting(Component::id)
          .contains("Previous-25227-2.30__RAID.Integrated.1-1");
    }
  }

  private String bootModeAfterPxeOnceAs(String vendor) throws Exception {
    if (vendor != null) {
      vendor(vendor);
    }
    // The BMC shows no mode: only a vendor that needs one gets it sent.
    bmc.overlay(
        SYSTEM,
        new JsonObject()
            .put("Boot", new JsonObject().put("BootSourceOverrideMode", (String) null)));
    try (BmcConnection c = connect()) {
      c.setNextBoot(BootDevice.PXE, true);
    }
    JsonObject boot = bmc.get(SYSTEM).getJsonObject("Boot");
    assertThat(boot.getString("BootSourceOverrideTarget")).isEqualTo("Pxe");
    assertThat(bmc.requests()).anySatisfy(r -> assertThat(r).startsWith("PATCH " + SYSTEM));
    return boot.getString("BootSourceOverrideMode");
  }

  @Test
  void supermicroBootOverridesCarryTheBootMode() throws Exception {
    assertThat(bootModeAfterPxeOnceAs("Supermicro")).isEqualTo("UEFI");
  }

  @Test
  void amiBootOverridesCarryTheBootMode() throws Exception {
    assertThat(bootModeAfterPxeOnceAs("AMI")).isEqualTo("UEFI");
  }

  @Test
  void aStandardBmcGetsNoBootModeItDidNotAskFor() throws Exception {
    assertThat(bootModeAfterPxeOnceAs(null)).isNull();
  }

  @Test
  void aBootModeTheBmcShowsIsKept() throws Exception {
    vendor("Supermicro");
    bmc.overlay(
        SYSTEM,
        new JsonObject().put("Boot", new JsonObject().put("BootSourceOverrideMode", "Legacy")));
    try (BmcConnection c = connect()) {
      c.setNextBoot(BootDevice.DISK, true);
    }
    assertThat(bmc.get(SYSTEM).getJsonObject("Boot").getString("BootSourceOverrideMode"))
        .isEqualTo("Legacy");
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
