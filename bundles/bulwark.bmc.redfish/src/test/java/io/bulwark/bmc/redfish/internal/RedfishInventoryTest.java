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
import java.time.Duration;
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
    String pin = tls.serverSha256();
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

      // Values as Processors/CPU1, Memory/DIMM1, EthernetInterfaces/12446A3B8890,
      // SimpleStorage/1 and UpdateService/FirmwareInventory/BMC give them.
      Component cpu = of(inventory, Kind.CPU).get(0);
      assertThat(cpu.manufacturer()).isEqualTo("Intel(R) Corporation");
      assertThat(cpu.model()).isEqualTo("Multi-Core Intel(R) Xeon(R) processor 7xxx Series");
      assertThat(cpu.details())
          .containsEntry("cores", "8")
          .containsEntry("threads", "16")
          .containsEntry("maxSpeedMHz", "3700")
          .containsEntry("health", "OK");
      assertThat(of(inventory, Kind.PCIE))
          .singleElement()
          .satisfies(
              f ->
                  assertThat(f.details())
                      .containsEntry("type", "FPGA")
                      .containsEntry("uuid", "00000000-0000-0000-0000-000000000000"));
      assertThat(of(inventory, Kind.MEMORY))
          .allSatisfy(
              m ->
                  assertThat(m.details())
                      .containsEntry("capacityMiB", "32768")
                      .containsEntry("type", "DDR4"));
      assertThat(of(inventory, Kind.NIC)).hasSize(4);
      assertThat(byId(inventory, Kind.NIC, "12446A3B8890").details())
          .as("the MAC in use, not the permanent one, lower-case")
          .containsEntry("mac", "aa:bb:cc:dd:ee:00")
          .containsEntry("speedMbps", "1000")
          .containsEntry("linkStatus", "LinkUp");
      // No Storage here: the drives come from SimpleStorage, the two absent bays left out.
      assertThat(of(inventory, Kind.DRIVE))
          .extracting(Component::id)
          .containsExactly("SATA Bay 1", "SATA Bay 2");
      assertThat(byId(inventory, Kind.DRIVE, "SATA Bay 1").details())
          .containsEntry("capacityBytes", "8000000000000");
      assertThat(byId(inventory, Kind.DRIVE, "SATA Bay 2").details())
          .containsEntry("health", "Warning");
      assertThat(byId(inventory, Kind.FIRMWARE, "BMC").details())
          .containsEntry("version", "1.45.455b66-rev4")
          .containsEntry("updateable", "true");
    }
  }

  private static Component byId(BmcInventory i, Kind kind, String id) {
    return i.of(kind).stream()
        .filter(c -> c.id().equals(id))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " " + id + " in " + i.of(kind)));
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
          .filteredOn(n -> n.details().containsKey("mac"))
          .extracting(n -> n.details().get("mac"))
          .containsExactlyInAnyOrder("fb:aa:1d:4e:d0:7a", "fb:aa:1d:4e:d0:7c");
      assertThat(of(inventory, Kind.DRIVE)).isNotEmpty();
      assertThat(of(inventory, Kind.DRIVE))
          .allSatisfy(d -> assertThat(d.details()).containsKey("capacityBytes"));
      assertThat(of(inventory, Kind.FIRMWARE))
          .extracting(Component::id)
          .containsExactlyInAnyOrder("BIOS", "BMC");

      // Values as the tower's files give them.
      assertThat(of(inventory, Kind.CPU))
          .allSatisfy(
              cpu ->
                  assertThat(cpu.details())
                      .containsEntry("cores", "16")
                      .containsEntry("threads", "32")
                      .containsEntry("maxSpeedMHz", "2300"));
      Component gpu = byId(inventory, Kind.GPU, "GPU1");
      assertThat(gpu.manufacturer()).isEqualTo("Nvidia(R) Corporation");
      assertThat(gpu.model()).isEqualTo("Nvidia(R) TU102");
      assertThat(gpu.details()).containsEntry("cores", "576").containsEntry("maxSpeedMHz", "1350");
      assertThat(of(inventory, Kind.MEMORY))
          .allSatisfy(m -> assertThat(m.details()).containsEntry("capacityMiB", "131072"));
      // The system links nine PCIe devices of its chassis.
      assertThat(of(inventory, Kind.PCIE))
          .extracting(Component::id)
          .containsExactly(
              "Slot1",
              "Slot2",
              "Slot3",
              "Slot4",
              "IntegratedNIC",
              "IntegratedNVMe1",
              "IntegratedNVMe2",
              "IntegratedRAID",
              "EmbeddedNVMeBridge");
      Component slot1 = byId(inventory, Kind.PCIE, "Slot1");
      assertThat(slot1.model()).isEqualTo("PowerGraphics RX2070");
      assertThat(slot1.details())
          .containsEntry("firmwareVersion", "4.5.44")
          .containsEntry("deviceType", "SingleFunction");
      // Four storage services: 2 + 8 + 8 drive links, 8 of them absent, HAFiberChannel none.
      assertThat(of(inventory, Kind.DRIVE))
          .extracting(Component::id)
          .containsExactly(
              "M.2-1",
              "M.2-2",
              "Disk-1-0",
              "Disk-1-1",
              "Disk-1-2",
              "Disk-1-3",
              "Disk-2-0",
              "Disk-2-1",
              "Disk-2-2",
              "Disk-2-3");
      assertThat(byId(inventory, Kind.DRIVE, "Disk-1-0").details())
          .as("a capacity above 2^53 kept exactly")
          .containsEntry("capacityBytes", "20266198323167230")
          .containsEntry("mediaType", "HDD")
          .containsEntry("protocol", "SAS");
      // The NetworkInterface NIC1, described by its chassis' NetworkAdapter.
      Component adapter = byId(inventory, Kind.NIC, "NIC1");
      assertThat(adapter.model()).isEqualTo("SuperNIC 2000");
      assertThat(adapter.serial()).isEqualTo("2M220100SL");
      assertThat(adapter.details()).containsEntry("firmwareVersion", "7.4.10");
      assertThat(of(inventory, Kind.NIC)).hasSize(3);
      assertThat(byId(inventory, Kind.FIRMWARE, "BIOS").details())
          .containsEntry("version", "P79 v1.45");
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
  void aBmcThatHangsInTheMiddleOfTheReadFailsItWithATimeout() throws Exception {
    String path = "/redfish/v1/Systems/437XR1138R2";
    try (RedfishMockupServer bmc =
            RedfishMockupServer.start(
                RedfishMockups.mockup("public-rackmount1"), tls, USER, PASSWORD);
        BmcConnection c = connect(bmc)) {
      JsonObject system = bmc.get(path);
      bmc.hangNext(1); // the Processors collection, the first request of the read itself
      long started = System.nanoTime();
      assertThatThrownBy(
              () ->
                  ((RedfishConnection) c)
                      .inventory(system, RedfishConnection.MAX_INVENTORY_REQUESTS))
          .isInstanceOfSatisfying(
              BmcException.class, e -> assertThat(e.kind()).isEqualTo(BmcException.Kind.TIMEOUT))
          .hasMessageContaining("did not answer GET /redfish/v1/Systems/437XR1138R2/Processors");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }
  }

  @Test
  void theReadSendsNoMoreRequestsThanItsBudget() throws Exception {
    try (RedfishMockupServer bmc =
            RedfishMockupServer.start(RedfishMockups.mockup("public-tower"), tls, USER, PASSWORD);
        BmcConnection c = connect(bmc)) {
      int before = bmc.requests().size();
      BmcInventory partial = ((RedfishConnection) c).inventory(5);
      assertThat(bmc.requests().size() - before).as("the system and five more").isEqualTo(6);
      // The Processors collection and CPU1-CPU4.
      assertThat(partial.components())
          .extracting(Component::id)
          .containsExactly("CPU1", "CPU2", "CPU3", "CPU4");
      int full = bmc.requests().size();
      c.inventory();
      assertThat(bmc.requests().size() - full)
          .as("the whole tower fits the default budget")
          .isLessThan(RedfishConnection.MAX_INVENTORY_REQUESTS);
    }
  }

  @Test
  void aCollectionWithABodyThatIsNotJsonYieldsNothingAndTheRestIsRead() throws Exception {
    try (RedfishMockupServer bmc =
            RedfishMockupServer.start(
                RedfishMockups.mockup("public-rackmount1"), tls, USER, PASSWORD);
        BmcConnection c = connect(bmc)) {
      JsonObject system = bmc.get("/redfish/v1/Systems/437XR1138R2");
      bmc.malformedNext(1); // the Processors collection, the first request of the read
      BmcInventory i = ((RedfishConnection) c).inventory(system, 256);
      assertThat(i.of(Kind.CPU)).as("no Processors collection could be read").isEmpty();
      assertThat(i.of(Kind.MEMORY)).hasSize(3);
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
