package io.bulwark.machines.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.bmc.BootDevice;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineEvent;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineRefusedException;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.NewMachine;
import io.bulwark.api.machine.PowerState;
import io.bulwark.bmc.redfish.internal.RedfishDriver;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.FipsProviders;
import io.bulwark.testing.InMemorySecrets;
import io.bulwark.testing.receivers.TestCertificates;
import io.bulwark.testing.redfish.RedfishMockupServer;
import io.bulwark.testing.redfish.RedfishMockups;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Machines and their BMCs with the real Redfish driver against a DMTF mockup served as a BMC serves
 * it (a test double: no real BMC runs here): trust on first use through the machine (shown, then
 * pinned by an admin with exactly the fingerprint shown), power and the next boot carried out in
 * the background with the result in the history, credentials read from the secret store, and a
 * restart while a power operation is under way.
 */
class MachineBmcTest {
  @TempDir static Path certs;
  @TempDir Path dir;
  private static TestCertificates tls;
  private RedfishMockupServer bmc;
  private final InMemorySecrets secrets = new InMemorySecrets();
  private final RedfishDriver driver =
      RedfishDriver.withTimeouts(
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
        RedfishMockupServer.start(
            RedfishMockups.mockup("public-rackmount1"), tls, "root", "calvin-7");
  }

  @AfterEach
  void stop() {
    bmc.close();
  }

  private MachineRegistry registry(MapDbRecordStore store) {
    Map<MachineState, Duration> timeouts = new EnumMap<>(MachineState.class);
    for (MachineState s : MachineState.values()) {
      if (s.isTransient()) {
        timeouts.put(s, Duration.ofMinutes(30));
      }
    }
    MachineRegistry r = new MachineRegistry(store, secrets, timeouts, Clock.systemUTC());
    r.bindDriver(driver);
    return r;
  }

  private Machine add(MachineRegistry r) {
    return r.add(
        new NewMachine(
            MachineId.of("dgx-a07"),
            "dgx-a07",
            List.of(),
            new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", bmc.port(), "", ""),
            "r07",
            "",
            Set.of(),
            null),
        "root",
        "calvin-7".toCharArray(),
        "admin");
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out");
      }
      Thread.sleep(50);
    }
  }

  /**
   * Waits until the BMC operation under way has ended and its result is in the history. A reader
   * may see the machine's record of a write before that write's history entry (store reads do not
   * wait for a write in progress), so both are waited for.
   */
  private static void awaitSettled(MachineRegistry r, MachineId id) throws InterruptedException {
    await(
        () -> {
          List<MachineEvent> last = r.history(id, 1);
          return r.machine(id).orElseThrow().pending().isEmpty()
              && !last.isEmpty()
              && (last.get(0).operation().endsWith(" done")
                  || last.get(0).operation().endsWith(" failed"));
        });
  }

  private static String fingerprint() throws Exception {
    return tls.serverSha256();
  }

  @Test
  void aProbeShowsTheCertificateAnAdminPinsItThenPowerAndBootGoThroughTheBmc() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      MachineId id = add(r).id();
      r.operate(id, MachineOperation.PROBE, "", "admin");
      await(() -> r.machine(id).orElseThrow().pending().isEmpty());
      Machine shown = r.machine(id).orElseThrow();
      assertThat(shown.presentedSha256()).isEqualTo(fingerprint());
      assertThat(shown.bmcError()).contains("not pinned yet").contains(fingerprint());
      assertThat(bmc.requests()).as("nothing sent before the pin").isEmpty();

      assertThatThrownBy(() -> r.pinCertificate(id, "00".repeat(32), "admin"))
          .isInstanceOf(MachineRefusedException.class)
          .hasMessageContaining("presented " + fingerprint());
      Machine pinned = r.pinCertificate(id, fingerprint(), "admin");
      assertThat(pinned.bmc().pinnedSha256()).isEqualTo(fingerprint());
      assertThat(pinned.bmcError()).isEmpty();

      r.operate(id, MachineOperation.PROBE, "", "admin");
      await(() -> r.machine(id).orElseThrow().pending().isEmpty());
      assertThat(r.machine(id).orElseThrow().power()).isEqualTo(PowerState.ON);

      Machine pending = r.operate(id, MachineOperation.POWER_OFF, "cabling", "ops");
      assertThat(pending.pending()).isEqualTo("power-off");
      assertThatThrownBy(() -> r.operate(id, MachineOperation.POWER_ON, "", "ops"))
          .as("one BMC operation at a time per machine")
          .hasMessageContaining("power-off under way");
      await(() -> r.machine(id).orElseThrow().pending().isEmpty());
      await(() -> "Off".equals(bmc.get("/redfish/v1/Systems/437XR1138R2").getString("PowerState")));

      r.setNextBoot(id, BootDevice.PXE, true, "re-image", "ops");
      await(() -> r.machine(id).orElseThrow().pending().isEmpty());
      assertThat(
              bmc.get("/redfish/v1/Systems/437XR1138R2")
                  .getJsonObject("Boot")
                  .getString("BootSourceOverrideTarget"))
          .isEqualTo("Pxe");

      List<String> ops = r.history(id, 100).stream().map(MachineEvent::operation).toList();
      assertThat(ops)
          .containsSubsequence(
              "add",
              "probe",
              "probe done",
              "pin-certificate",
              "probe",
              "probe done",
              "power-off",
              "power-off done",
              "set-boot",
              "set-boot done");
      assertThat(r.history(id, 100))
          .allSatisfy(e -> assertThat(e.to()).isEqualTo(MachineState.NEW));
    }
  }

  @Test
  void anEnlistedMachineGivenItsBmcByAnAdminIsPoweredThroughIt() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      MachineId id = MachineId.of("m-525400b10501");
      r.add(
          new NewMachine(
              id, "node-525400b10501", List.of("52:54:00:b1:05:01"), null, "", "", Set.of(), null),
          null,
          null,
          "provisioning");
      assertThat(r.refusal(id, MachineOperation.POWER_ON)).isPresent();
      assertThatThrownBy(
              () ->
                  r.setBmc(
                      id,
                      new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", bmc.port(), "", ""),
                      "",
                      "x".toCharArray(),
                      "admin"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("user name");
      Machine set =
          r.setBmc(
              id,
              new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", bmc.port(), "", fingerprint()),
              "root",
              "calvin-7".toCharArray(),
              "admin");
      assertThat(set.bmc().credentialRef()).isEqualTo(MachineRegistry.secretName(id));
      assertThat(set.bmc().pinnedSha256()).isEqualTo(fingerprint());
      assertThat(secrets.get(set.bmc().credentialRef())).isPresent();
      r.operate(id, MachineOperation.POWER_OFF, "", "admin");
      await(() -> r.machine(id).orElseThrow().pending().isEmpty());
      await(() -> "Off".equals(bmc.get("/redfish/v1/Systems/437XR1138R2").getString("PowerState")));
      assertThat(r.machine(id).orElseThrow().bmcError()).isEmpty();
      assertThat(r.history(id, 10).stream().map(MachineEvent::reason))
          .anyMatch(w -> w.equals("BMC set to redfish 127.0.0.1:" + bmc.port() + " by admin"));
    }
  }

  @Test
  void pinnedBmcsAreReadForPowerSensorsAndTheEventLogIntoTelemetryAndLinkedToTheirNode()
      throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      io.bulwark.testing.InMemoryFleet fleet = new io.bulwark.testing.InMemoryFleet();
      fleet.recordObserved(
          io.bulwark.api.fleet.NodeId.of("dgx-a07"), List.of(), java.time.Instant.now());
      r.bindFleet(fleet);
      List<io.bulwark.api.telemetry.TelemetryBatch> pushed =
          java.util.Collections.synchronizedList(new java.util.ArrayList<>());
      r.bindIngest(
          batch -> {
            pushed.add(batch);
            return null;
          });
      MachineId id = add(r).id();
      assertThat(r.pollAll()).as("not pinned: not read").isZero();
      r.pinCertificate(id, fingerprintAfterProbe(r, id), "admin");
      assertThat(r.pollAll()).isEqualTo(1);
      await(() -> r.lastPoll(id).isPresent() && !pushed.isEmpty());
      BmcWork.Poll poll = r.lastPoll(id).orElseThrow();
      assertThat(poll.error()).isEmpty();
      assertThat(poll.sensors()).isNotEmpty();
      assertThat(poll.events()).hasSize(2);
      Machine m = r.machine(id).orElseThrow();
      assertThat(m.node()).isEqualTo(io.bulwark.api.fleet.NodeId.of("dgx-a07"));
      assertThat(m.power()).isEqualTo(PowerState.ON);
      io.bulwark.api.telemetry.TelemetryBatch batch = pushed.get(0);
      assertThat(batch.source()).isEqualTo("bmc");
      assertThat(batch.reportedGpus()).as("a BMC does not say which GPUs the node has").isNull();
      assertThat(batch.readings())
          .extracting(io.bulwark.api.telemetry.Reading::metric)
          .contains("BMC_TEMPERATURE_CEL:cpu1_temp");
      assertThat(r.history(id, 10).stream().map(MachineEvent::operation)).contains("link");

      // The BMC stops answering: the machine says so once; after three failures in a row it rests.
      bmc.close();
      for (int i = 0; i < 20 && r.pollAll() > 0; i++) {
        Thread.sleep(300);
      }
      assertThat(r.machine(id).orElseThrow().bmcError()).contains("127.0.0.1");
      assertThat(r.history(id, 500).stream().filter(e -> e.operation().equals("bmc failing")))
          .hasSize(1);
      assertThat(r.pollAll()).as("resting after three failures").isZero();
    }
  }

  private String fingerprintAfterProbe(MachineRegistry r, MachineId id) throws Exception {
    r.operate(id, MachineOperation.PROBE, "", "admin");
    await(() -> r.machine(id).orElseThrow().pending().isEmpty());
    return r.machine(id).orElseThrow().presentedSha256();
  }

  @Test
  void aRefusedPasswordIsTheMachinesBmcErrorAndTheOperationFailedInTheHistory() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      Machine m =
          r.add(
              new NewMachine(
                  MachineId.of("dgx-b01"),
                  "dgx-b01",
                  List.of(),
                  new BmcEndpoint(BmcProtocol.REDFISH, "127.0.0.1", bmc.port(), "", fingerprint()),
                  "",
                  "",
                  Set.of(),
                  null),
              "root",
              "wrong".toCharArray(),
              "admin");
      r.operate(m.id(), MachineOperation.POWER_CYCLE, "", "ops");
      awaitSettled(r, m.id());
      Machine after = r.machine(m.id()).orElseThrow();
      assertThat(after.bmcError()).contains("refused the credentials");
      MachineEvent last = r.history(m.id(), 1).get(0);
      assertThat(last.operation()).isEqualTo("power-cycle failed");
      assertThat(last.reason()).contains("refused the credentials");
    }
  }

  @Test
  void aRestartWhileAPowerOperationIsUnderWayLeavesNoOperationHanging() throws Exception {
    MachineId id;
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      id = add(r).id();
      r.operate(id, MachineOperation.PROBE, "", "admin");
      await(() -> r.machine(id).orElseThrow().pending().isEmpty());
      r.pinCertificate(id, fingerprint(), "admin");
      bmc.hangNext(100);
      r.operate(id, MachineOperation.POWER_CYCLE, "XID 79", "remediation");
      // The appliance dies here: the power cycle was requested, the BMC never answered.
      r.deactivate();
    }
    bmc.hangNext(0);
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      assertThat(r.machine(id).orElseThrow().pending()).isEqualTo("power-cycle");
      assertThat(r.failInterrupted()).isEqualTo(1);
      Machine m = r.machine(id).orElseThrow();
      assertThat(m.pending()).isEmpty();
      assertThat(m.power()).isEqualTo(PowerState.UNKNOWN);
      assertThat(m.bmcError()).contains("restarted before the BMC confirmed power-cycle");
      assertThat(r.history(id, 1).get(0).operation()).isEqualTo("power-cycle interrupted");
      assertThat(r.allowed(id)).contains(MachineOperation.PROBE, MachineOperation.POWER_CYCLE);
    }
  }

  /**
   * A BMC driver for IPMI that answers from memory (the IPMI driver itself is tested against
   * ipmi_sim in its bundle; here only what the registry does with a protocol without certificates
   * is tested).
   */
  private static final class MemoryIpmiDriver implements io.bulwark.api.bmc.BmcDriver {
    final java.util.concurrent.atomic.AtomicInteger connects =
        new java.util.concurrent.atomic.AtomicInteger();
    volatile String gpuUuid = "";

    @Override
    public BmcProtocol protocol() {
      return BmcProtocol.IPMI;
    }

    @Override
    public String presentedFingerprint(BmcEndpoint endpoint) {
      return "";
    }

    @Override
    public io.bulwark.api.bmc.BmcConnection connect(
        BmcEndpoint endpoint, io.bulwark.api.bmc.BmcCredentials credentials) {
      connects.incrementAndGet();
      return new io.bulwark.api.bmc.BmcConnection() {
        @Override
        public io.bulwark.api.bmc.BmcIdentity identity() {
          return new io.bulwark.api.bmc.BmcIdentity("Acme", "X1", "S1", "", "");
        }

        @Override
        public PowerState power() {
          return PowerState.ON;
        }

        @Override
        public void power(io.bulwark.api.bmc.PowerAction action) {}

        @Override
        public void setNextBoot(BootDevice device, boolean once) {}

        @Override
        public List<io.bulwark.api.bmc.BmcSensor> sensors() {
          return List.of(
              new io.bulwark.api.bmc.BmcSensor(
                  "FAN1",
                  io.bulwark.api.bmc.BmcSensor.Kind.FAN,
                  0,
                  "RPM",
                  "Critical",
                  500,
                  Double.NaN));
        }

        @Override
        public List<io.bulwark.api.bmc.BmcLogEntry> eventLog(int max) {
          return List.of();
        }

        @Override
        public io.bulwark.api.bmc.BmcInventory inventory() throws io.bulwark.api.bmc.BmcException {
          if (gpuUuid.isEmpty()) {
            throw new io.bulwark.api.bmc.BmcException(
                io.bulwark.api.bmc.BmcException.Kind.UNSUPPORTED, "no inventory", null);
          }
          return new io.bulwark.api.bmc.BmcInventory(
              List.of(
                  new io.bulwark.api.bmc.BmcInventory.Component(
                      io.bulwark.api.bmc.BmcInventory.Kind.GPU,
                      "GPU0",
                      "",
                      "NVIDIA",
                      "H100",
                      "",
                      Map.of("uuid", gpuUuid))));
        }

        @Override
        public void close() {}
      };
    }
  }

  @Test
  void anIpmiMachineHasNothingToPinAndIsReadAtOnceItsReadingsGoToTheDetectors() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      MemoryIpmiDriver ipmi = new MemoryIpmiDriver();
      r.bindDriver(ipmi);
      MachineId id =
          r.add(
                  new NewMachine(
                      MachineId.of("old-1"),
                      "old-1",
                      List.of(),
                      new BmcEndpoint(BmcProtocol.IPMI, "127.0.0.1", 623, "", ""),
                      "",
                      "",
                      Set.of(),
                      null),
                  "admin",
                  "pw-ipmi-1".toCharArray(),
                  "admin")
              .id();

      r.operate(id, MachineOperation.PROBE, "", "admin");
      awaitSettled(r, id);
      assertThat(r.machine(id).orElseThrow().presentedSha256()).isEmpty();
      assertThat(r.history(id, 10).get(r.history(id, 10).size() - 1).reason())
          .contains("probed: Acme X1, serial S1")
          .contains("no hardware inventory from this BMC");

      assertThat(r.pollAll()).as("read without a pin").isEqualTo(1);
      await(() -> !r.readings().isEmpty());
      var readings = r.readings().get(0);
      assertThat(readings.machine()).isEqualTo(id);
      assertThat(readings.sensors()).extracting(s -> s.name()).containsExactly("FAN1");
      assertThat(readings.findingNode().value()).isEqualTo("old-1");
    }
  }

  @Test
  void aMachineWhoseHostNameIsNoNodeIsLinkedByTheGpuUuidsItsBmcReports() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      io.bulwark.testing.InMemoryFleet fleet = new io.bulwark.testing.InMemoryFleet();
      fleet.recordObserved(
          io.bulwark.api.fleet.NodeId.of("node-17"),
          List.of(
              new io.bulwark.api.fleet.Gpu(0, "GPU-1f2e3d4c-0000-4000-8000-00000000aaaa", "H100")),
          java.time.Instant.now());
      r.bindFleet(fleet);
      MemoryIpmiDriver ipmi = new MemoryIpmiDriver();
      ipmi.gpuUuid = "1F2E3D4C-0000-4000-8000-00000000AAAA";
      r.bindDriver(ipmi);
      MachineId id =
          r.add(
                  new NewMachine(
                      MachineId.of("asset-4411"),
                      "asset-4411",
                      List.of(),
                      new BmcEndpoint(BmcProtocol.IPMI, "127.0.0.1", 623, "", ""),
                      "",
                      "",
                      Set.of(),
                      null),
                  "admin",
                  "pw-ipmi-1".toCharArray(),
                  "admin")
              .id();
      r.operate(id, MachineOperation.PROBE, "", "admin");
      await(() -> r.machine(id).orElseThrow().pending().isEmpty());
      assertThat(r.inventory(id)).isPresent();

      r.pollAll();
      await(() -> r.machine(id).orElseThrow().node() != null);
      assertThat(r.machine(id).orElseThrow().node().value()).isEqualTo("node-17");
      assertThat(r.history(id, 20).get(r.history(id, 20).size() - 1).reason())
          .contains("by the GPU UUIDs its BMC reports");
    }
  }
}
