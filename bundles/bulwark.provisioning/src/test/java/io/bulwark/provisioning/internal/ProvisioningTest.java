package io.bulwark.provisioning.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.NewMachine;
import io.bulwark.api.machine.PowerState;
import io.bulwark.api.provisioning.BootPurpose;
import io.bulwark.api.provisioning.BootReport;
import io.bulwark.store.internal.MapDbRecordStore;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Enlistment and commissioning on the real store. The machines are a map behind the machines
 * service's interface (its registry's configuration type is private to its bundle): add, list,
 * complete and fail as the registry does them for these states; the whole path through the real
 * registry runs in the PXE end-to-end test.
 */
class ProvisioningTest {
  static final String MAC = "52:54:00:b1:05:01";
  @TempDir Path dir;
  MapDbRecordStore store;
  final Map<MachineId, Machine> machines = new ConcurrentHashMap<>();
  Provisioning provisioning;
  final io.bulwark.testing.RecordingAuditLog audit = new io.bulwark.testing.RecordingAuditLog();

  @BeforeEach
  void start() {
    store = MapDbRecordStore.inFolder(dir);
    provisioning =
        new Provisioning(
            service(),
            store,
            audit,
            new ImageStore(dir.resolve("images"), List.of(dir.resolve("keys"))));
  }

  @AfterEach
  void stop() {
    provisioning.stop();
    store.close();
  }

  private MachineService service() {
    return (MachineService)
        Proxy.newProxyInstance(
            MachineService.class.getClassLoader(),
            new Class<?>[] {MachineService.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "machines" -> List.copyOf(machines.values());
                  case "machine" ->
                      java.util.Optional.ofNullable(machines.get((MachineId) args[0]));
                  case "operate" -> {
                    MachineId id = (MachineId) args[0];
                    MachineState to =
                        switch ((io.bulwark.api.machine.MachineOperation) args[1]) {
                          case ALLOCATE -> MachineState.ALLOCATED;
                          case DEPLOY -> MachineState.DEPLOYING;
                          case RELEASE -> MachineState.RELEASING;
                          case ERASE_DISKS -> MachineState.DISK_ERASING;
                          case TEST -> MachineState.TESTING;
                          case POWER_ON, POWER_CYCLE, POWER_OFF -> null;
                          default -> throw new UnsupportedOperationException(args[1].toString());
                        };
                    if (to == null) {
                      String op = ((io.bulwark.api.machine.MachineOperation) args[1]).apiName();
                      bmcCalls.add(op);
                      event(id, bmcFails ? op + " failed" : op + " done", "BMC: 401 Unauthorized");
                      yield machines.get(id);
                    }
                    yield move(id, to, (String) args[2]);
                  }
                  case "setNextBoot" -> {
                    MachineId id = (MachineId) args[0];
                    bmcCalls.add("set-boot " + args[1]);
                    event(id, "set-boot done", "");
                    yield machines.get(id);
                  }
                  case "history" ->
                      List.copyOf(history.getOrDefault((MachineId) args[0], List.of()));
                  case "refusal" -> java.util.Optional.empty();
                  case "add" -> {
                    NewMachine n = (NewMachine) args[0];
                    Machine m = machine(n.id(), n.macs(), MachineState.NEW);
                    machines.put(n.id(), m);
                    yield m;
                  }
                  case "complete" -> {
                    MachineId id = (MachineId) args[0];
                    yield move(id, done(machines.get(id).state()), (String) args[1]);
                  }
                  case "fail" -> {
                    MachineId id = (MachineId) args[0];
                    yield move(id, failed(machines.get(id).state()), (String) args[1]);
                  }
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  private static MachineState done(MachineState s) {
    return switch (s) {
      case DEPLOYING -> MachineState.DEPLOYED;
      case ENTERING_RESCUE_MODE -> MachineState.RESCUE_MODE;
      case EXITING_RESCUE_MODE -> MachineState.DEPLOYED;
      default -> MachineState.READY;
    };
  }

  private static MachineState failed(MachineState s) {
    return switch (s) {
      case DEPLOYING -> MachineState.FAILED_DEPLOYMENT;
      case DISK_ERASING -> MachineState.FAILED_DISK_ERASING;
      case TESTING -> MachineState.FAILED_TESTING;
      case ENTERING_RESCUE_MODE -> MachineState.FAILED_ENTERING_RESCUE_MODE;
      default -> MachineState.FAILED_COMMISSIONING;
    };
  }

  final List<String> bmcCalls = new java.util.concurrent.CopyOnWriteArrayList<>();
  final Map<MachineId, List<io.bulwark.api.machine.MachineEvent>> history =
      new ConcurrentHashMap<>();
  volatile boolean bmcFails;

  private void event(MachineId id, String operation, String reason) {
    Machine m = machines.get(id);
    history
        .computeIfAbsent(id, k -> new java.util.concurrent.CopyOnWriteArrayList<>())
        .add(
            new io.bulwark.api.machine.MachineEvent(
                1, id, Instant.now(), operation, m.state(), m.state(), "bulwark", reason));
  }

  private Machine move(MachineId id, MachineState to, String reason) {
    Machine m = machines.get(id).withState(to, reason, Instant.now(), null, null);
    machines.put(id, m);
    return m;
  }

  private static Machine machine(MachineId id, List<String> macs, MachineState state) {
    Instant t = Instant.parse("2026-12-03T08:00:00Z");
    return new Machine(
        id,
        id.value(),
        macs,
        null,
        "",
        "",
        java.util.Set.of(),
        state,
        "",
        t,
        null,
        null,
        "",
        false,
        null,
        PowerState.UNKNOWN,
        "",
        "",
        "",
        t);
  }

  static JsonObject inventory(String mac) {
    return new JsonObject()
        .put("mac", mac)
        .put("cpu", new JsonObject().put("count", 2).put("model", "QEMU Virtual CPU version 2.5+"))
        .put("memoryBytes", 480L << 20)
        .put("system", new JsonObject().put("vendor", "QEMU"))
        .put(
            "disks",
            new JsonArray().add(new JsonObject().put("name", "vda").put("bytes", 64L << 20)))
        .put(
            "nics",
            new JsonArray()
                .add(new JsonObject().put("name", "eth0").put("mac", mac).put("driver", "e1000"))
                .add(new JsonObject().put("name", "eth1").put("mac", "52:54:00:b1:05:99")))
        .put("pci", new JsonArray())
        .put("nvidiaGpus", 0);
  }

  private static BootReport report(BootPurpose purpose, String json) {
    return new BootReport(MAC, purpose, json, "/10.79.0.100:40000", Instant.now());
  }

  @Test
  void anUnknownMacEnlistsAsANewMachineWithItsInventoryAndEveryMac() {
    assertThat(provisioning.purpose(MAC)).isEqualTo(BootPurpose.ENLIST);

    String answer = provisioning.report(report(BootPurpose.ENLIST, inventory(MAC).encode()));

    assertThat(answer).isEqualTo("enlisted as m-525400b10501 (New)");
    Machine m = machines.get(MachineId.of("m-525400b10501"));
    assertThat(m.state()).isEqualTo(MachineState.NEW);
    assertThat(m.macs()).containsExactly(MAC, "52:54:00:b1:05:99");
    assertThat(provisioning.purpose(MAC)).isEqualTo(BootPurpose.LOCAL);
    HardwareRecord hw = provisioning.hardware(m.id()).orElseThrow();
    assertThat(new JsonObject(hw.inventory()).getJsonObject("cpu").getInteger("count"))
        .isEqualTo(2);
    assertThat(hw.purpose()).isEqualTo("enlist");
    assertThatThrownBy(
            () -> provisioning.report(report(BootPurpose.ENLIST, inventory(MAC).encode())))
        .hasMessageContaining("not enlisted twice");
    // Both reports are in the audit log, with the boot environment as the actor.
    assertThat(audit.records).hasSize(2);
    assertThat(audit.records.get(0).event().actor()).isEqualTo("boot-environment:" + MAC);
    assertThat(audit.records.get(0).event().action()).isEqualTo("provisioning.report-enlist");
    assertThat(audit.records.get(0).event().target()).isEqualTo("m-525400b10501");
    assertThat(audit.records.get(0).event().source()).isEqualTo("10.79.0.100");
    assertThat(audit.records.get(1).event().outcome())
        .isEqualTo(io.bulwark.api.audit.AuditOutcome.FAILURE);
  }

  @Test
  void inventoriesThatDoNotHoldTogetherAreRefused() {
    assertThatThrownBy(() -> provisioning.report(report(BootPurpose.ENLIST, "[1,2]")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a JSON object");
    assertThatThrownBy(
            () ->
                provisioning.report(
                    report(BootPurpose.ENLIST, inventory("52:54:00:00:00:01").encode())))
        .hasMessageContaining("do not include " + MAC);
    JsonObject noCpu = inventory(MAC);
    noCpu.remove("cpu");
    assertThatThrownBy(() -> provisioning.report(report(BootPurpose.ENLIST, noCpu.encode())))
        .hasMessageContaining("no CPU count");
    JsonObject wrongType = inventory(MAC).put("memoryBytes", "lots");
    assertThatThrownBy(() -> provisioning.report(report(BootPurpose.ENLIST, wrongType.encode())))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(machines).isEmpty();
  }

  private static JsonObject test(String name, int status, String output) {
    return new JsonObject().put("name", name).put("exitStatus", status).put("output", output);
  }

  @Test
  void commissioningEndsReadyWhenEveryTestPassesAndFailedWithTheFailingTestOtherwise() {
    provisioning.report(report(BootPurpose.ENLIST, inventory(MAC).encode()));
    MachineId id = MachineId.of("m-525400b10501");
    move(id, MachineState.COMMISSIONING, "commission");
    assertThat(provisioning.purpose(MAC)).isEqualTo(BootPurpose.COMMISSION);

    JsonObject passing =
        new JsonObject()
            .put("inventory", inventory(MAC))
            .put(
                "results",
                new JsonArray()
                    .add(test("memory", 0, "ok"))
                    .add(test("disk-read", 0, "vda: fine")));
    assertThat(provisioning.report(report(BootPurpose.COMMISSION, passing.encode())))
        .contains("m-525400b10501 is Ready");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.READY);
    assertThat(provisioning.hardware(id).orElseThrow().passed()).isTrue();

    move(id, MachineState.COMMISSIONING, "again");
    JsonObject failing =
        new JsonObject()
            .put("inventory", inventory(MAC))
            .put(
                "results",
                new JsonArray()
                    .add(test("memory", 0, "ok"))
                    .add(test("disk-read", 1, "dd started\nvda: read failed: I/O error")));
    String answer = provisioning.report(report(BootPurpose.COMMISSION, failing.encode()));
    assertThat(answer).contains("disk-read (exit 1)").contains("vda: read failed: I/O error");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.FAILED_COMMISSIONING);
    assertThat(machines.get(id).stateReason()).contains("disk-read");
    assertThat(provisioning.hardware(id).orElseThrow().passed()).isFalse();

    // A report for a machine that is not commissioning is refused.
    assertThatThrownBy(() -> provisioning.report(report(BootPurpose.COMMISSION, passing.encode())))
        .hasMessageContaining("not Commissioning");
  }

  private Machine withBmc(MachineId id, PowerState power) {
    Machine m =
        machines
            .get(id)
            .withBmc(
                new io.bulwark.api.machine.BmcEndpoint(
                    io.bulwark.api.machine.BmcProtocol.REDFISH,
                    "10.0.0.7",
                    443,
                    "machine/" + id.value(),
                    "ab".repeat(32)))
            .withBmcStatus(power, "", "");
    machines.put(id, m);
    return m;
  }

  @Test
  void aMachineWithABmcIsSetToBootTheNetworkThenPoweredOnceEvenAcrossARestart() {
    provisioning.stop();
    provisioning.report(report(BootPurpose.ENLIST, inventory(MAC).encode()));
    MachineId id = MachineId.of("m-525400b10501");
    withBmc(id, PowerState.OFF);
    move(id, MachineState.COMMISSIONING, "commission");
    provisioning.sweep();
    assertThat(bmcCalls).containsExactly("set-boot PXE");
    provisioning.sweep();
    assertThat(bmcCalls).as("powered on: it was off").containsExactly("set-boot PXE", "power-on");
    provisioning.sweep();
    Provisioning restarted =
        new Provisioning(
            service(),
            store,
            audit,
            new ImageStore(dir.resolve("images"), List.of(dir.resolve("keys"))));
    restarted.stop();
    restarted.sweep();
    assertThat(bmcCalls).as("nothing asked twice").hasSize(2);

    // Aborted while it boots: switched off through its BMC, once.
    move(id, MachineState.NEW, "aborted");
    event(id, "abort", "aborted by ops");
    restarted.sweep();
    restarted.sweep();
    assertThat(bmcCalls).containsExactly("set-boot PXE", "power-on", "power-off");

    // The next operation starts over; a machine that is on is power-cycled. A BMC that refuses
    // fails the operation with its words.
    machines.put(id, machines.get(id).withBmcStatus(PowerState.ON, "", ""));
    move(id, MachineState.DEPLOYING, "deploy");
    bmcFails = true;
    restarted.sweep();
    restarted.sweep();
    assertThat(bmcCalls).endsWith("set-boot PXE", "power-cycle");
    restarted.sweep();
    assertThat(machines.get(id).state()).isEqualTo(MachineState.FAILED_DEPLOYMENT);
    assertThat(machines.get(id).stateReason())
        .isEqualTo("its BMC did not power it: BMC: 401 Unauthorized");
  }

  @Test
  void aBootThatStopsFailsAtOnceWithItsReasonAndLastLogLines() {
    provisioning.report(report(BootPurpose.ENLIST, inventory(MAC).encode()));
    MachineId id = MachineId.of("m-525400b10501");
    move(id, MachineState.COMMISSIONING, "commission");
    List<String> lines = new java.util.ArrayList<>();
    for (int i = 1; i <= 45; i++) {
      lines.add("bulwark: step " + i + (i == 45 ? "\u0007" : ""));
    }
    provisioning.progress(MAC, "0a1b2c3d4e5f", lines.subList(0, 20));
    provisioning.progress(MAC, "0a1b2c3d4e5f", lines.subList(20, 45));
    BootLog log = provisioning.bootLog(id.value()).orElseThrow();
    assertThat(log.lines()).hasSize(BootLog.LINES).startsWith("bulwark: step 6");
    assertThat(log.lines()).last().isEqualTo("bulwark: step 45");
    provisioning.progress(MAC, "99aa00bb11cc", List.of("bulwark: next boot"));
    assertThat(provisioning.bootLog(id.value()).orElseThrow().lines())
        .as("a new boot starts a new log")
        .containsExactly("bulwark: next boot");
    provisioning.progress(MAC, "0a1b2c3d4e5f", lines.subList(40, 45));

    String answer =
        provisioning.report(
            report(
                BootPurpose.COMMISSION,
                new JsonObject()
                    .put("failed", true)
                    .put("reason", "the appliance did not take the commission report")
                    .encode()));
    assertThat(answer).contains("Failed commissioning");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.FAILED_COMMISSIONING);
    assertThat(machines.get(id).stateReason())
        .isEqualTo(
            "commission stopped on the machine: the appliance did not take the commission report"
                + " (last lines: bulwark: step 43 | bulwark: step 44 | bulwark: step 45)");
    assertThat(List.copyOf(audit.records))
        .anySatisfy(
            r -> {
              assertThat(r.event().action()).isEqualTo("provisioning.report-commission");
              assertThat(r.event().actor()).isEqualTo("boot-environment:" + MAC);
            });
  }

  @Test
  void testingRunsTheChosenTestsAndRescueModeIsEnteredByItsReport() {
    provisioning.stop();
    provisioning.report(report(BootPurpose.ENLIST, inventory(MAC).encode()));
    MachineId id = MachineId.of("m-525400b10501");
    move(id, MachineState.READY, "commissioned");
    assertThatThrownBy(() -> provisioning.test(id, List.of("Disk Read"), "ops"))
        .hasMessageContaining("no test name or tag");
    provisioning.test(id, List.of("disk-read", "memory"), "ops");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.TESTING);
    assertThat(provisioning.purpose(MAC)).isEqualTo(BootPurpose.TEST);
    assertThat(provisioning.kernelArguments(MAC)).containsEntry("tests", "disk-read,memory");
    JsonObject results =
        new JsonObject()
            .put("inventory", inventory(MAC))
            .put("results", new JsonArray().add(test("disk-read", 0, "vda: 64 MiB read")));
    assertThat(provisioning.report(report(BootPurpose.TEST, results.encode())))
        .contains("testing passed");

    move(id, MachineState.ENTERING_RESCUE_MODE, "rescue");
    assertThat(provisioning.purpose(MAC)).isEqualTo(BootPurpose.RESCUE);
    assertThat(provisioning.report(report(BootPurpose.RESCUE, "{\"console\":\"ttyS0\"}")))
        .contains("rescue mode");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.RESCUE_MODE);
    move(id, MachineState.EXITING_RESCUE_MODE, "exit rescue");
    provisioning.sweep();
    assertThat(machines.get(id).state()).isEqualTo(MachineState.DEPLOYED);
    assertThat(machines.get(id).stateReason()).contains("no BMC: restart it by hand");
  }

  @Test
  void aSignedImageIsDeployedAndCheckedAndAReleaseErasesTheDisks() throws Exception {
    io.bulwark.testing.FipsProviders.install();
    java.security.KeyPair keys = Images.keys();
    Images.publish(dir, "debian-12", new byte[3 << 20], keys);
    provisioning.report(report(BootPurpose.ENLIST, inventory(MAC).encode()));
    MachineId id = MachineId.of("m-525400b10501");
    move(id, MachineState.READY, "commissioned");

    ImageStore.Image image = provisioning.images().image("debian-12").orElseThrow();
    assertThat(image.trusted()).as(image.problem()).isTrue();
    assertThat(image.signer()).isEqualTo("site.pem");
    provisioning.deploy(id, "debian-12", "#cloud-config\nhostname: gpu-a07\n", "admin");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.DEPLOYING);
    assertThat(provisioning.purpose(MAC)).isEqualTo(BootPurpose.DEPLOY);
    assertThat(provisioning.kernelArguments(MAC))
        .containsEntry("image", "images/debian-12.img")
        .containsEntry("sha256", image.sha256())
        .containsEntry("size", Long.toString(3 << 20));

    JsonObject wrong =
        new JsonObject()
            .put("disk", "vda")
            .put("sha256Received", image.sha256())
            .put("sha256OnDisk", "00");
    assertThat(provisioning.report(report(BootPurpose.DEPLOY, wrong.encode())))
        .contains("did not check out");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.FAILED_DEPLOYMENT);

    provisioning.deploy(id, "debian-12", "#cloud-config\nhostname: gpu-a07\n", "admin");
    String firstSeed = provisioning.kernelArguments(MAC).get("seed");
    JsonObject good =
        new JsonObject()
            .put("disk", "vda")
            .put("sha256Received", image.sha256())
            .put("sha256OnDisk", image.sha256());
    assertThat(provisioning.report(report(BootPurpose.DEPLOY, good.encode())))
        .contains("read back");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.DEPLOYED);
    assertThat(provisioning.purpose(MAC)).isEqualTo(BootPurpose.LOCAL);
    String seed = provisioning.deployment(id).orElseThrow().seed();
    assertThat(seed).hasSize(43);
    assertThat(seed).isEqualTo(firstSeed);
    assertThat(provisioning.cloudInit(seed, "user-data"))
        .hasValue("#cloud-config\nhostname: gpu-a07\n");
    assertThat(provisioning.cloudInit(seed, "meta-data").orElseThrow())
        .contains("instance-id: m-525400b10501-" + seed.substring(0, 8));
    assertThat(provisioning.cloudInit(seed.substring(1) + "x", "user-data")).isEmpty();

    provisioning.release(id, "secure", "admin");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.DISK_ERASING);
    assertThat(provisioning.cloudInit(seed, "user-data")).as("no seed once released").isEmpty();
    assertThat(provisioning.kernelArguments(MAC)).containsEntry("erase", "secure");
    JsonObject erased =
        new JsonObject()
            .put("mode", "secure")
            .put(
                "disks",
                new JsonArray().add(new JsonObject().put("name", "vda").put("nonZeroBytes", 0)));
    assertThat(provisioning.report(report(BootPurpose.ERASE, erased.encode()))).contains("zeroes");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.READY);
  }

  @Test
  void anImageWithoutAGoodSignatureIsNotDeployable() throws Exception {
    io.bulwark.testing.FipsProviders.install();
    java.security.KeyPair trusted = Images.keys();
    java.security.KeyPair stranger = Images.keys();
    Images.publish(dir, "signed-by-stranger", new byte[1024], stranger);
    java.nio.file.Files.writeString(dir.resolve("keys/site.pem"), Images.pem(trusted.getPublic()));
    Images.publish(dir, "tampered", new byte[2048], trusted);
    java.nio.file.Files.write(dir.resolve("images/tampered.img"), new byte[2049]);
    java.nio.file.Files.write(dir.resolve("images/unsigned.img"), new byte[10]);

    assertThat(provisioning.images().image("signed-by-stranger").orElseThrow().problem())
        .contains("matches no trusted key");
    assertThat(provisioning.images().image("tampered").orElseThrow().trusted()).isFalse();
    assertThat(provisioning.images().image("unsigned").orElseThrow().problem())
        .contains("no signature");
    provisioning.report(report(BootPurpose.ENLIST, inventory(MAC).encode()));
    MachineId id = MachineId.of("m-525400b10501");
    move(id, MachineState.READY, "commissioned");
    assertThatThrownBy(() -> provisioning.deploy(id, "tampered", "", "admin"))
        .hasMessageContaining("not deployable");
    assertThat(machines.get(id).state()).isEqualTo(MachineState.READY);
  }

  @Test
  void anUploadedImageIsAddedOnlyWithASignatureOfATrustedKey() throws Exception {
    io.bulwark.testing.FipsProviders.install();
    java.security.KeyPair trusted = Images.keys();
    java.security.KeyPair stranger = Images.keys();
    java.nio.file.Files.createDirectories(dir.resolve("keys"));
    java.nio.file.Files.writeString(dir.resolve("keys/site.pem"), Images.pem(trusted.getPublic()));
    ImageStore store = provisioning.images();
    java.nio.file.Files.createDirectories(store.incoming());
    byte[] image = new byte[300_000];
    new java.util.Random(7).nextBytes(image);

    java.nio.file.Path bad = store.incoming().resolve("ubuntu.img.part1");
    java.nio.file.Files.write(bad, image);
    assertThatThrownBy(() -> store.add("ubuntu", bad, Images.sign(image, stranger)))
        .hasMessageContaining("matches no trusted key");
    assertThat(bad).as("a refused upload is deleted").doesNotExist();
    assertThat(store.image("ubuntu")).isEmpty();

    java.nio.file.Path good = store.incoming().resolve("ubuntu.img.part2");
    java.nio.file.Files.write(good, image);
    ImageStore.Image added = store.add("ubuntu", good, Images.sign(image, trusted));
    assertThat(added.trusted()).isTrue();
    assertThat(added.signer()).isEqualTo("site.pem");
    assertThat(java.nio.file.Files.readAllBytes(dir.resolve("images/ubuntu.img"))).isEqualTo(image);

    java.nio.file.Path twice = store.incoming().resolve("ubuntu.img.part3");
    java.nio.file.Files.write(twice, image);
    assertThatThrownBy(() -> store.add("ubuntu", twice, Images.sign(image, trusted)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already an image");
    assertThat(twice).doesNotExist();
  }
}
