package io.bulwark.provisioning.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.NewMachine;
import io.bulwark.api.machine.PowerState;
import io.bulwark.api.provisioning.BootPurpose;
import io.bulwark.api.provisioning.BootReport;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.RecordingAuditLog;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Anyone on the provisioning network can fetch the iPXE script of a MAC they made up and report an
 * enlistment with its boot token. Given a flood of 1,000 invented MACs, from one address and from
 * 50: the machines it adds and the audit records it costs stay bounded, while a machine an admin
 * added with its MAC boots and reports, and a new machine on another address enlists.
 */
class EnlistmentFloodTest {
  static final String KNOWN_MAC = "52:54:00:0a:00:01";
  static final MachineId KNOWN = MachineId.of("gpu-a01");

  @TempDir Path dir;
  MapDbRecordStore store;
  final Map<MachineId, Machine> machines = new ConcurrentHashMap<>();
  final RecordingAuditLog audit = new RecordingAuditLog();
  final MutableClock clock = new MutableClock(Instant.parse("2026-12-07T10:00:00Z"));
  Provisioning provisioning;

  @BeforeEach
  void start() {
    store = MapDbRecordStore.inFolder(dir);
    provisioning =
        new Provisioning(
            service(),
            store,
            audit,
            new ImageStore(dir.resolve("images"), List.of(dir.resolve("keys"))),
            EnlistmentLimits.DEFAULTS,
            clock);
    provisioning.stop();
    // Racked by an admin with its MAC, and being commissioned.
    Machine known =
        added(new NewMachine(KNOWN, "gpu-a01", List.of(KNOWN_MAC), null, "", "", Set.of(), null));
    machines.put(
        KNOWN,
        known.withState(MachineState.COMMISSIONING, "commission", clock.instant(), null, null));
  }

  @AfterEach
  void stop() {
    store.close();
  }

  static String invented(int i) {
    return String.format(
        Locale.ROOT,
        "02:00:%02x:%02x:%02x:%02x",
        i >> 24 & 0xff,
        i >> 16 & 0xff,
        i >> 8 & 0xff,
        i & 0xff);
  }

  /** An inventory whose only NIC is the one that booted. */
  static JsonObject inventory(String mac) {
    JsonObject inv = ProvisioningTest.inventory(mac);
    inv.getJsonArray("nics").remove(1);
    return inv;
  }

  /** The boot environment's enlistment report for {@code mac}, from {@code address}. */
  BootReport enlistment(String mac, String address) {
    return new BootReport(
        mac,
        BootPurpose.ENLIST,
        inventory(mac).encode(),
        "/" + address + ":40000",
        clock.instant());
  }

  /** Sends the report; returns null if it was taken, else why it was refused. */
  String send(BootReport report) {
    try {
      provisioning.report(report);
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  long enlisted() {
    return machines.values().stream().filter(m -> m.tags().contains("enlisted")).count();
  }

  void theKnownMachineBootsAndIsCommissioned() {
    assertThat(provisioning.purpose(KNOWN_MAC)).isEqualTo(BootPurpose.COMMISSION);
    JsonObject passing =
        new JsonObject()
            .put("inventory", inventory(KNOWN_MAC))
            .put(
                "results",
                new JsonArray()
                    .add(
                        new JsonObject()
                            .put("name", "memory")
                            .put("exitStatus", 0)
                            .put("output", "ok")));
    String answer =
        provisioning.report(
            new BootReport(
                KNOWN_MAC,
                BootPurpose.COMMISSION,
                passing.encode(),
                "/10.79.0.10:40000",
                clock.instant()));
    assertThat(answer).contains("gpu-a01 is Ready");
    assertThat(machines.get(KNOWN).state()).isEqualTo(MachineState.READY);
  }

  @Test
  void aThousandInventedMacsFromOneAddressAddAFewMachinesAndCostTheAuditLogLittle() {
    String refusal = null;
    for (int i = 0; i < 1_000; i++) {
      clock.advance(Duration.ofMillis(30));
      String why = send(enlistment(invented(i), "10.79.0.66"));
      refusal = why == null ? refusal : why;
      if (i == 500) {
        // Meanwhile a machine an admin added boots for its commissioning, and a new machine on
        // another address enlists.
        theKnownMachineBootsAndIsCommissioned();
        assertThat(send(enlistment("52:54:00:0a:00:02", "10.79.0.11"))).isNull();
      }
    }
    clock.advance(Duration.ofMinutes(2));
    provisioning.sweep();
    provisioning.stop();

    long created = enlisted() - 1;
    System.out.printf(
        "1,000 invented MACs from one address: %d machines added, %d audit records%n",
        created, fromFlood());
    // 30 s of flood: the burst, then one every 6 s.
    assertThat(created).isBetween(10L, 10L + 30 / EnlistmentLimits.DEFAULTS.refillSeconds() + 1);
    assertThat(refusal).contains("10.79.0.66").contains("try again in");
    List<AuditRecord> refused = refusals();
    assertThat(refused).as("one record per address and minute").hasSizeLessThanOrEqualTo(1);
    assertThat(refused.get(0).event().details())
        .containsEntry("count", String.valueOf(1_000 - created));
    assertThat(audit.records.size()).isLessThanOrEqualTo((int) created + 1 + 3);
  }

  @Test
  void aThousandInventedMacsFromFiftyAddressesStopAtTheCapOfUnacceptedMachines() {
    String refusal = null;
    for (int i = 0; i < 1_000; i++) {
      String why = send(enlistment(invented(i), "10.79.1." + (i % 50 + 1)));
      refusal = why == null ? refusal : why;
      if (i == 500) {
        theKnownMachineBootsAndIsCommissioned();
      }
    }
    clock.advance(Duration.ofMinutes(2));
    provisioning.sweep();
    provisioning.stop();

    long created = enlisted();
    System.out.printf(
        "1,000 invented MACs from 50 addresses: %d machines added, %d audit records%n",
        created, fromFlood());
    assertThat(created).isEqualTo(EnlistmentLimits.DEFAULTS.maxNew());
    assertThat(refusal).contains("not yet accepted");
    assertThat(refusals()).hasSizeLessThanOrEqualTo(50);
    assertThat(audit.records.size()).isLessThanOrEqualTo((int) created + 50 + 1);

    // An admin accepts one (it is commissioned): one more may enlist.
    MachineId first =
        machines.values().stream()
            .filter(m -> m.tags().contains("enlisted"))
            .findFirst()
            .orElseThrow()
            .id();
    machines.put(
        first,
        machines
            .get(first)
            .withState(MachineState.COMMISSIONING, "commission", clock.instant(), null, null));
    clock.advance(Duration.ofMinutes(1));
    assertThat(send(enlistment("52:54:00:0a:00:03", "10.79.0.12"))).isNull();
    assertThat(send(enlistment("52:54:00:0a:00:04", "10.79.0.13"))).contains("not yet accepted");
  }

  @Test
  void whatTheClientWritesIsBoundedAndCheckedBeforeAnythingIsStoredOrAudited() {
    String mac = "52:54:00:0a:00:05";
    JsonObject huge = inventory(mac);
    huge.getJsonObject("cpu").put("model", "x".repeat(1 << 20));
    assertThat(send(enlistment(mac, huge))).contains("at most " + Inventory.MAX_BYTES);
    JsonObject longText = inventory(mac);
    longText.getJsonObject("cpu").put("model", "x".repeat(300));
    assertThat(send(enlistment(mac, longText))).contains("cpu.model").contains("at most 256");

    JsonObject control = inventory(mac);
    control.getJsonObject("system").put("vendor", "QEMU\u001b[2J\u202e");
    assertThat(send(enlistment(mac, control))).contains("system.vendor").contains("control");

    JsonObject manyNics = inventory(mac);
    for (int i = 0; i < 5_000; i++) {
      manyNics
          .getJsonArray("nics")
          .add(new JsonObject().put("name", "eth" + i).put("mac", invented(i)));
    }
    assertThat(send(enlistment(mac, manyNics))).contains("nics");

    JsonObject extra = inventory(mac);
    extra.put(
        "notes",
        new JsonArray()
            .add("y".repeat(200))
            .add(
                new JsonObject()
                    .put(
                        "a",
                        new JsonObject()
                            .put("b", new JsonObject().put("c", new JsonArray().add("deep"))))));
    assertThat(send(enlistment(mac, extra))).contains("notes");

    // A NIC that is another machine's: its boots are not taken over.
    JsonObject hijack = inventory(mac);
    hijack.getJsonArray("nics").add(new JsonObject().put("name", "eth9").put("mac", KNOWN_MAC));
    assertThat(send(enlistment(mac, hijack))).contains(KNOWN_MAC).contains("gpu-a01");

    assertThat(machines).containsOnlyKeys(KNOWN);
    assertThat(provisioning.reported()).isEmpty();
    provisioning.flushRefusals(true);
    assertThat(audit.records).hasSize(1);
    assertThat(audit.records.get(0).event().details().toString()).hasSizeLessThan(1_000);
    assertThat(send(enlistment(mac, inventory(mac)))).isNull();
  }

  @Test
  void aFloodThatGoesOnCostsOneAuditRecordPerAddressAndMinute() {
    provisioning =
        new Provisioning(
            service(),
            store,
            audit,
            new ImageStore(dir.resolve("images"), List.of(dir.resolve("keys"))),
            new EnlistmentLimits(1, 3600, 100),
            clock);
    provisioning.stop();
    assertThat(send(enlistment(invented(0), "10.79.0.66"))).isNull();
    for (int i = 1; i <= 600; i++) {
      clock.advance(Duration.ofMillis(500));
      provisioning.sweep();
      assertThat(send(enlistment(invented(i), "10.79.0.66"))).contains("try again in");
    }
    provisioning.stop();
    List<AuditRecord> refused = refusals();
    assertThat(refused).as("five minutes of refusals").hasSize(5);
    assertThat(refused.stream().mapToLong(r -> Long.parseLong(r.event().details().get("count"))))
        .containsExactly(120L, 120L, 120L, 120L, 120L);
    assertThat(refused.get(0).event().source()).isEqualTo("10.79.0.66");
    assertThat(refused.get(0).event().details())
        .containsEntry("firstMac", invented(1))
        .containsEntry("lastMac", invented(120));
  }

  @Test
  void bootLogsOfMacsThatAreNoMachineAreBounded() {
    for (int i = 0; i < 1_000; i++) {
      provisioning.progress(invented(i), "0a1b2c3d4e5f", List.of("bulwark: booting"));
    }
    provisioning.progress(KNOWN_MAC, "0a1b2c3d4e5f", List.of("bulwark: commissioning"));
    int kept = store.read(r -> r.map(BootLog.MAP).size());
    assertThat(kept).isEqualTo(BootLogs.MAX_BY_MAC + 1);
    assertThat(provisioning.bootLog(invented(999))).isPresent();
    assertThat(provisioning.bootLog(invented(0))).isEmpty();
    assertThat(provisioning.bootLog(KNOWN.value())).isPresent();
  }

  BootReport enlistment(String mac, JsonObject inventory) {
    return new BootReport(
        mac, BootPurpose.ENLIST, inventory.encode(), "/10.79.0.20:40000", clock.instant());
  }

  long fromFlood() {
    return audit.records.stream()
        .filter(r -> r.event().source().matches("10\\.79\\.(0\\.66|1\\.[0-9]+)"))
        .count();
  }

  List<AuditRecord> refusals() {
    return audit.records.stream()
        .filter(r -> r.event().action().equals("provisioning.enlist-refused"))
        .peek(r -> assertThat(r.event().outcome()).isEqualTo(AuditOutcome.DENIED))
        .toList();
  }

  private Machine added(NewMachine n) {
    Instant t = clock.instant();
    Machine m =
        new Machine(
            n.id(),
            n.hostname(),
            n.macs(),
            null,
            "",
            "",
            n.tags(),
            MachineState.NEW,
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
    machines.put(n.id(), m);
    return m;
  }

  private MachineService service() {
    return (MachineService)
        Proxy.newProxyInstance(
            MachineService.class.getClassLoader(),
            new Class<?>[] {MachineService.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "machines" -> List.copyOf(machines.values());
                  case "machine" -> Optional.ofNullable(machines.get((MachineId) args[0]));
                  case "add" -> added((NewMachine) args[0]);
                  case "complete" -> {
                    MachineId id = (MachineId) args[0];
                    Machine m =
                        machines
                            .get(id)
                            .withState(
                                MachineState.READY, (String) args[1], clock.instant(), null, null);
                    machines.put(id, m);
                    yield m;
                  }
                  case "history" -> List.of();
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  /** A clock the test moves. */
  static final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
