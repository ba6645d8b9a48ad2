package io.bulwark.bmc.redfish.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcInventory;
import io.bulwark.api.bmc.BmcInventory.Component;
import io.bulwark.api.bmc.BmcInventory.Kind;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hardware inventory read from two DMTF mockups served as a BMC serves them (a test double: no
 * real BMC runs here): the counts and values below were read from the mockup files themselves, so
 * the test fails if the links are followed or the properties read wrongly. Also: a member that
 * answers 404 is left out, and a BMC that hangs fails the read within the driver's timeouts.
 */
class RedfishInventoryTest {
  private static final String USER = "bulwark";
  private static final String PASSWORD = "Bmc-Pass-42";

  @TempDir static Path certs;
  private static TestCertificates tls;
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

  private BmcConnection connect(RedfishMockupServer bmc) throws Exception {
    String pin =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256", "SUN")
                    .digest(tls.serverCertificate().getEncoded()));
    return driver.connect(
        new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", bmc.port(), "machine.bmc.m", pin),
        new BmcCredentials(USER, PASSWORD.toCharArray()));
  }

  private static List<Component> of(BmcInventory i, Kind kind) {
    return i.of(kind);
  }

  @Test
  void theRackmountMockupsProcessorsMemoryNicsAndFirmware() throws Exception {
    try (RedfishMockupServer bmc =
            RedfishMockupServer.start(
                RedfishMockups.mockup("public-rackmount1"), tls, USER, PASSWORD);
        BmcConnection c = connect(bmc)) {
      BmcInventory inventory = c.inventory();

      // CPU1 enabled, CPU2 absent (left out), FPGA1 an add-in device.
      assertThat(of(inventory, Kind.CPU)).extracting(Component::id).containsExactly("CPU1");
      assertThat(of(inventory, Kind.PCIE)).extracting(Component::id).contains("FPGA1");
      assertThat(of(inventory, Kind.GPU)).isEmpty();
      // DIMM1-3 enabled, DIMM4 absent.
      assertThat(of(inventory, Kind.MEMORY))
          .extracting(Component::id)
          .containsExactlyInAnyOrder("DIMM1", "DIMM2", "DIMM3");
      assertThat(of(inventory, Kind.NIC))
          .extracting(n -> n.details().get("mac"))
          .contains("12:44:6a:3b:04:11", "aa:bb:cc:dd:ee:00");
      assertThat(of(inventory, Kind.FIRMWARE))
          .extracting(Component::id)
          .containsExactlyInAnyOrder("BIOS", "BMC", "SS");
      assertThat(of(inventory, Kind.FIRMWARE))
          .allSatisfy(f -> assertThat(f.details()).containsKey("version"));
    }
  }

  @Test
  void theTowerMockupsGpusAndDrives() throws Exception {
    try (RedfishMockupServer bmc =
            RedfishMockupServer.start(RedfishMockups.mockup("public-tower"), tls, USER, PASSWORD);
        BmcConnection c = connect(bmc)) {
      BmcInventory inventory = c.inventory();

      assertThat(of(inventory, Kind.CPU)).hasSize(8);
      assertThat(of(inventory, Kind.GPU)).extracting(Component::id).containsExactly("GPU1", "GPU2");
      assertThat(of(inventory, Kind.MEMORY)).hasSize(8); // 16 slots, 8 absent
      assertThat(of(inventory, Kind.NIC))
          .extracting(n -> n.details().get("mac"))
          .containsExactlyInAnyOrder("fb:aa:1d:4e:d0:7a", "fb:aa:1d:4e:d0:7c");
      assertThat(of(inventory, Kind.DRIVE)).isNotEmpty();
      assertThat(of(inventory, Kind.DRIVE))
          .allSatisfy(d -> assertThat(d.details()).containsKey("capacityBytes"));
      assertThat(of(inventory, Kind.FIRMWARE))
          .extracting(Component::id)
          .containsExactlyInAnyOrder("BIOS", "BMC");
    }
  }

  @Test
  void aMemberThatIsMissingIsLeftOut() throws Exception {
    try (RedfishMockupServer bmc =
        RedfishMockupServer.start(
            RedfishMockups.mockup("public-rackmount1"), tls, USER, PASSWORD)) {
      JsonObject memory = bmc.get("/redfish/v1/Systems/437XR1138R2/Memory");
      memory
          .getJsonArray("Members")
          .add(new JsonObject().put("@odata.id", "/redfish/v1/Systems/437XR1138R2/Memory/GONE"));
      bmc.overlay("/redfish/v1/Systems/437XR1138R2/Memory", memory);
      try (BmcConnection c = connect(bmc)) {
        assertThat(c.inventory().of(Kind.MEMORY)).hasSize(3);
      }
    }
  }

  @Test
  void aBmcThatHangsFailsTheReadWithinTheTimeouts() throws Exception {
    try (RedfishMockupServer bmc =
            RedfishMockupServer.start(
                RedfishMockups.mockup("public-rackmount1"), tls, USER, PASSWORD);
        BmcConnection c = connect(bmc)) {
      bmc.hangNext(100);
      long started = System.nanoTime();
      assertThatThrownBy(c::inventory)
          .isInstanceOfSatisfying(BmcException.class, e -> assertThat(e.retryable()).isTrue());
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }
  }
}
