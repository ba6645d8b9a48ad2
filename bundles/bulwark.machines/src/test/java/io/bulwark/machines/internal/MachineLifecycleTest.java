package io.bulwark.machines.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineEvent;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineRefusedException;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.NewMachine;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.InMemorySecrets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The machine life cycle on a real store: every state x every operation against the table below
 * (written from MAAS's node actions, independently of {@code Transitions}), the history and who
 * asked, timeouts, a restart in the middle of an operation, the lock, and the credentials that go
 * into the secret store only.
 */
class MachineLifecycleTest {
  /**
   * What each state allows and where it leads; "^" is "back to the state it came from". Power,
   * probe, lock, unlock and delete are rules, checked apart.
   */
  private static final String SPEC =
      """
      NEW: commission>COMMISSIONING mark-broken>BROKEN
      COMMISSIONING: abort>^
      FAILED_COMMISSIONING: commission>COMMISSIONING test>TESTING rescue>ENTERING_RESCUE_MODE mark-broken>BROKEN
      READY: commission>COMMISSIONING test>TESTING allocate>ALLOCATED deploy>DEPLOYING rescue>ENTERING_RESCUE_MODE quarantine>QUARANTINED mark-broken>BROKEN
      ALLOCATED: deploy>DEPLOYING release>RELEASING erase-disks>DISK_ERASING rescue>ENTERING_RESCUE_MODE quarantine>QUARANTINED mark-broken>BROKEN
      DEPLOYING: abort>ALLOCATED
      DEPLOYED: release>RELEASING erase-disks>DISK_ERASING rescue>ENTERING_RESCUE_MODE quarantine>QUARANTINED mark-broken>BROKEN
      FAILED_DEPLOYMENT: deploy>DEPLOYING release>RELEASING erase-disks>DISK_ERASING rescue>ENTERING_RESCUE_MODE mark-broken>BROKEN
      RELEASING:
      FAILED_RELEASING: release>RELEASING erase-disks>DISK_ERASING mark-broken>BROKEN
      DISK_ERASING: abort>FAILED_DISK_ERASING
      FAILED_DISK_ERASING: erase-disks>DISK_ERASING release>RELEASING mark-broken>BROKEN
      RESCUE_MODE: exit-rescue>EXITING_RESCUE_MODE mark-broken>BROKEN
      ENTERING_RESCUE_MODE: abort>^
      FAILED_ENTERING_RESCUE_MODE: rescue>ENTERING_RESCUE_MODE exit-rescue>EXITING_RESCUE_MODE mark-broken>BROKEN
      EXITING_RESCUE_MODE:
      FAILED_EXITING_RESCUE_MODE: exit-rescue>EXITING_RESCUE_MODE mark-broken>BROKEN
      TESTING: abort>^
      FAILED_TESTING: test>TESTING commission>COMMISSIONING mark-fixed>READY rescue>ENTERING_RESCUE_MODE mark-broken>BROKEN
      BROKEN: mark-fixed>READY commission>COMMISSIONING test>TESTING rescue>ENTERING_RESCUE_MODE
      QUARANTINED: remediate>REMEDIATING return-to-service>^ mark-broken>BROKEN
      REMEDIATING: abort>QUARANTINED
      """;

  private static final Set<MachineOperation> RULES =
      Set.of(
          MachineOperation.POWER_ON,
          MachineOperation.POWER_OFF,
          MachineOperation.POWER_CYCLE,
          MachineOperation.SOFT_OFF,
          MachineOperation.SET_BOOT,
          MachineOperation.PROBE,
          MachineOperation.LOCK,
          MachineOperation.UNLOCK,
          MachineOperation.DELETE);

  @TempDir Path dir;
  private final InMemorySecrets secrets = new InMemorySecrets();
  private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T08:00:00Z"));

  private static Map<MachineState, Map<MachineOperation, String>> spec() {
    Map<MachineState, Map<MachineOperation, String>> spec = new EnumMap<>(MachineState.class);
    for (String line : SPEC.strip().split("\n")) {
      String[] parts = line.strip().split(":", 2);
      Map<MachineOperation, String> row = new HashMap<>();
      for (String cell : parts[1].strip().split("\\s+")) {
        if (cell.isEmpty()) {
          continue;
        }
        String[] kv = cell.split(">");
        row.put(MachineOperation.parse(kv[0]).orElseThrow(), kv[1]);
      }
      spec.put(MachineState.valueOf(parts[0].strip()), row);
    }
    return spec;
  }

  private MachineRegistry registry(MapDbRecordStore store) {
    Map<MachineState, Duration> timeouts = new EnumMap<>(MachineState.class);
    for (MachineState s : MachineState.values()) {
      if (s.isTransient()) {
        timeouts.put(s, Duration.ofMinutes(30));
      }
    }
    return new MachineRegistry(store, secrets, timeouts, clock);
  }

  private static NewMachine machine(String id, boolean bmc) {
    return new NewMachine(
        MachineId.of(id),
        id + ".site",
        List.of("02:00:00:00:00:01"),
        bmc ? new BmcEndpoint(BmcProtocol.REDFISH, "10.2.0.17", 443, "", "") : null,
        "r07",
        "hall-a",
        Set.of("a100"),
        null);
  }

  /** Puts machine {@code id} in {@code state} (returning to {@code back}) straight in the store. */
  private static void force(
      MapDbRecordStore store, MachineRegistry r, String id, MachineState state, MachineState back) {
    Machine m = r.machine(MachineId.of(id)).orElseThrow();
    Machine forced = m.withState(state, "set up by the test", Instant.EPOCH, null, back);
    store.write(
        "test",
        io.bulwark.api.store.WritePriority.ROUTINE,
        w -> {
          w.map(MachineFormats.MACHINES).put(id, forced);
          return null;
        });
  }

  @Test
  void everyStateTimesEveryOperationIsAllowedOrRefusedNamingTheState() throws Exception {
    Map<MachineState, Map<MachineOperation, String>> spec = spec();
    assertThat(spec.keySet())
        .as("the spec covers every state")
        .containsExactlyInAnyOrder(MachineState.values());
    int pairs = 0;
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      r.add(machine("m", false), null, null, "admin");
      for (MachineState state : MachineState.values()) {
        for (MachineOperation op : MachineOperation.values()) {
          pairs++;
          force(store, r, "m", state, MachineState.DEPLOYED);
          String expected = spec.get(state).get(op);
          assertThat(r.allowed(MachineId.of("m")).contains(op))
              .as("allowed() agrees for %s in %s", op, state)
              .isEqualTo(expected != null || ruleAllows(state, op));
          if (RULES.contains(op)) {
            checkRule(r, state, op);
          } else if (expected == null) {
            assertThatThrownBy(() -> r.operate(MachineId.of("m"), op, "", "admin"))
                .as("%s in %s", op, state)
                .isInstanceOf(MachineRefusedException.class)
                .hasMessageContaining(state.label())
                .satisfies(e -> assertThat(((MachineRefusedException) e).state()).isEqualTo(state));
            assertThat(r.machine(MachineId.of("m")).orElseThrow().state()).isEqualTo(state);
          } else {
            Machine after = r.operate(MachineId.of("m"), op, "because", "admin");
            MachineState to =
                expected.equals("^") ? MachineState.DEPLOYED : MachineState.valueOf(expected);
            assertThat(after.state()).as("%s in %s", op, state).isEqualTo(to);
            assertThat(r.machine(MachineId.of("m")).orElseThrow().state())
                .as("stored")
                .isEqualTo(to);
            assertThat(after.stateDeadline() != null)
                .as("deadline of %s", to)
                .isEqualTo(to.isTransient());
          }
        }
      }
    }
    assertThat(pairs).isEqualTo(MachineState.values().length * MachineOperation.values().length);
  }

  private static boolean ruleAllows(MachineState state, MachineOperation op) {
    return switch (op) {
      case DELETE -> !state.isTransient();
      case LOCK -> state == MachineState.DEPLOYED;
      default -> false; // no BMC on this machine; unlock needs a lock
    };
  }

  private void checkRule(MachineRegistry r, MachineState state, MachineOperation op) {
    MachineId id = MachineId.of("m");
    if (op == MachineOperation.DELETE && !state.isTransient()) {
      return; // deleting is tested below; here it would remove the machine under test
    }
    if (op == MachineOperation.LOCK && state == MachineState.DEPLOYED) {
      assertThat(r.operate(id, op, "", "admin").locked()).isTrue();
      assertThat(r.operate(id, MachineOperation.UNLOCK, "", "admin").locked()).isFalse();
      return;
    }
    assertThatThrownBy(() -> r.operate(id, op, "", "admin"))
        .as("%s in %s", op, state)
        .isInstanceOf(MachineRefusedException.class)
        .satisfies(
            e -> {
              String message = e.getMessage();
              switch (op) {
                case DELETE -> assertThat(message).contains(state.label()).contains("abort");
                case LOCK -> assertThat(message).contains(state.label()).contains("Deployed");
                case UNLOCK -> assertThat(message).contains("not locked");
                default -> assertThat(message).contains("has no BMC");
              }
            });
  }

  @Test
  void aLockedMachineRefusesWhatWouldDisturbItsWorkAndSaysSo() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      r.add(machine("m", true), "root", "calvin".toCharArray(), "admin");
      force(store, r, "m", MachineState.DEPLOYED, null);
      MachineId id = MachineId.of("m");
      r.operate(id, MachineOperation.LOCK, "training run 7", "ops");
      for (MachineOperation op : MachineOperation.values()) {
        if (op.disturbsWork()) {
          assertThatThrownBy(() -> r.operate(id, op, "", "ops"))
              .as("%s while locked", op)
              .isInstanceOf(MachineRefusedException.class)
              .hasMessageContaining("is locked")
              .hasMessageContaining("Deployed");
        }
      }
      // Powering on and probing are not refused for the lock: they need a BMC driver.
      assertThatThrownBy(() -> r.operate(id, MachineOperation.POWER_ON, "", "ops"))
          .hasMessageContaining("no BMC driver for redfish is installed")
          .hasMessageContaining("10.2.0.17");
      assertThat(r.operate(id, MachineOperation.UNLOCK, "", "ops").locked()).isFalse();
      assertThat(r.operate(id, MachineOperation.RELEASE, "", "ops").state())
          .isEqualTo(MachineState.RELEASING);
    }
  }

  @Test
  void theWholeJourneyIsKeptAsHistoryWithWhoAndWhy() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      MachineId id = MachineId.of("dgx-a07");
      r.add(machine("dgx-a07", true), "root", "calvin".toCharArray(), "admin");
      r.operate(id, MachineOperation.COMMISSION, "racked", "admin");
      r.complete(id, "inventory and tests passed", "provisioning");
      r.operate(id, MachineOperation.ALLOCATE, "", "alice");
      assertThat(r.machine(id).orElseThrow().owner()).isEqualTo("alice");
      r.operate(id, MachineOperation.DEPLOY, "", "alice");
      r.complete(id, "booted from disk", "provisioning");
      r.operate(id, MachineOperation.QUARANTINE, "XID 79 on GPU 3", "remediation");
      r.operate(id, MachineOperation.REMEDIATE, "power cycle", "remediation");
      Machine back = r.complete(id, "re-validated: detectors quiet for 10 min", "remediation");
      assertThat(back.state()).as("back to service").isEqualTo(MachineState.DEPLOYED);
      assertThat(back.owner()).isEqualTo("alice");
      r.operate(id, MachineOperation.RELEASE, "job done", "alice");
      Machine ready = r.complete(id, "released", "provisioning");
      assertThat(ready.state()).isEqualTo(MachineState.READY);
      assertThat(ready.owner()).as("released machines have no owner").isEmpty();

      List<MachineEvent> h = r.history(id, 100);
      assertThat(h)
          .extracting(MachineEvent::operation)
          .containsExactly(
              "add",
              "commission",
              "complete",
              "allocate",
              "deploy",
              "complete",
              "quarantine",
              "remediate",
              "complete",
              "release",
              "complete");
      assertThat(h)
          .extracting(MachineEvent::seq)
          .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L);
      MachineEvent quarantine = h.get(6);
      assertThat(quarantine.from()).isEqualTo(MachineState.DEPLOYED);
      assertThat(quarantine.to()).isEqualTo(MachineState.QUARANTINED);
      assertThat(quarantine.by()).isEqualTo("remediation");
      assertThat(quarantine.reason()).isEqualTo("XID 79 on GPU 3");
      assertThat(r.history(id, 2)).extracting(MachineEvent::seq).containsExactly(10L, 11L);
    }
    // The history and state survive the store being closed and opened again.
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      assertThat(r.machine(MachineId.of("dgx-a07")).orElseThrow().state())
          .isEqualTo(MachineState.READY);
      assertThat(r.history(MachineId.of("dgx-a07"), 500)).hasSize(11);
    }
  }

  @Test
  void aTransientStatePastItsTimeoutFailsWithTheReason() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      MachineId id = MachineId.of("m");
      r.add(machine("m", false), null, null, "admin");
      r.operate(id, MachineOperation.COMMISSION, "", "admin");
      clock.advance(Duration.ofMinutes(29));
      assertThat(r.sweep()).isZero();
      clock.advance(Duration.ofMinutes(1));
      assertThat(r.sweep()).isEqualTo(1);
      Machine m = r.machine(id).orElseThrow();
      assertThat(m.state()).isEqualTo(MachineState.FAILED_COMMISSIONING);
      assertThat(m.stateReason()).contains("Commissioning did not end within 30 min");
      MachineEvent last = r.history(id, 1).get(0);
      assertThat(last.operation()).isEqualTo("timeout");
      assertThat(last.by()).isEqualTo("bulwark");
      assertThat(last.from()).isEqualTo(MachineState.COMMISSIONING);
    }
  }

  @Test
  void aRestartInTheMiddleOfAnOperationFailsItExplicitlyNeverHangs() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      r.add(machine("a", false), null, null, "admin");
      r.add(machine("b", false), null, null, "admin");
      r.add(machine("c", false), null, null, "admin");
      r.operate(MachineId.of("a"), MachineOperation.COMMISSION, "", "admin");
      force(store, r, "b", MachineState.REMEDIATING, MachineState.DEPLOYED);
      // kill -9 here: the store holds what was written.
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      assertThat(r.failInterrupted()).isEqualTo(1);
      Machine a = r.machine(MachineId.of("a")).orElseThrow();
      assertThat(a.state()).isEqualTo(MachineState.FAILED_COMMISSIONING);
      assertThat(a.stateReason())
          .contains("the appliance restarted while the machine was Commissioning");
      // Remediating is left to the remediation run that holds the machine: it resumes at its step.
      assertThat(r.machine(MachineId.of("b")).orElseThrow().state())
          .isEqualTo(MachineState.REMEDIATING);
      assertThat(r.machine(MachineId.of("c")).orElseThrow().state()).isEqualTo(MachineState.NEW);
      assertThat(r.history(MachineId.of("a"), 1).get(0).operation()).isEqualTo("restart");
      assertThat(r.failInterrupted()).as("nothing left under way").isZero();
    }
  }

  @Test
  void credentialsGoToTheSecretStoreOnlyAndLeaveWithTheMachine() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      MachineId id = MachineId.of("dgx-b01");
      Machine m = r.add(machine("dgx-b01", true), "root", "s3cret-BMC-pw".toCharArray(), "admin");
      assertThat(m.bmc().credentialRef()).isEqualTo("machine.bmc.dgx-b01");
      byte[] sealed = secrets.get("machine.bmc.dgx-b01").orElseThrow();
      assertThat(new String(sealed, java.nio.charset.StandardCharsets.ISO_8859_1))
          .contains("s3cret-BMC-pw");
      assertThatThrownBy(() -> r.add(machine("dgx-b01", true), "root", "x".toCharArray(), "admin"))
          .hasMessageContaining("already a machine 'dgx-b01'");
      assertThatThrownBy(() -> r.add(machine("dgx-b02", true), null, null, "admin"))
          .hasMessageContaining("needs a user name and password");
      r.operate(id, MachineOperation.DELETE, "decommissioned", "admin");
      assertThat(r.machine(id)).isEmpty();
      assertThat(r.history(id, 10)).isEmpty();
      assertThat(secrets.names()).isEmpty();
    }
    // The store file never holds the password.
    byte[] file = java.nio.file.Files.readAllBytes(dir.resolve("bulwark.db"));
    assertThat(new String(file, java.nio.charset.StandardCharsets.ISO_8859_1))
        .doesNotContain("s3cret-BMC-pw");
  }

  @Test
  void twoOperatorsAtOnceGetOneSuccessAndOneRefusal() throws Exception {
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      MachineRegistry r = registry(store);
      MachineId id = MachineId.of("m");
      r.add(machine("m", false), null, null, "admin");
      force(store, r, "m", MachineState.READY, null);
      List<Object> outcomes = java.util.Collections.synchronizedList(new ArrayList<>());
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (String who : List.of("alice", "bob")) {
        Thread t =
            new Thread(
                () -> {
                  try {
                    go.await();
                    outcomes.add(r.operate(id, MachineOperation.ALLOCATE, "", who).owner());
                  } catch (MachineRefusedException e) {
                    outcomes.add(e);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
        t.start();
        threads.add(t);
      }
      go.countDown();
      for (Thread t : threads) {
        t.join();
      }
      assertThat(outcomes).hasSize(2);
      assertThat(outcomes.stream().filter(o -> o instanceof MachineRefusedException)).hasSize(1);
      assertThat(outcomes.stream().filter(o -> o instanceof String)).hasSize(1);
    }
  }

  /** A clock the test moves. */
  static final class MutableClock extends Clock {
    private Instant now;

    MutableClock(Instant start) {
      now = start;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneOffset getZone() {
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
