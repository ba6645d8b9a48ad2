package io.bulwark.remediation.internal;

import io.bulwark.api.bmc.BmcInventory;
import io.bulwark.api.health.Finding;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineEvent;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.machine.PowerState;
import io.bulwark.api.remediation.RemediationStep;
import io.bulwark.api.remediation.StepContext;
import io.bulwark.api.remediation.StepOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The steps on the managed machine: {@code power-cycle} through its BMC, and {@code mark-broken}.
 */
final class MachineSteps {
  private MachineSteps() {}

  /**
   * {@code power-cycle}: asks the machines service for a power cycle through the BMC, waits for the
   * BMC's answer in the machine's history, then for the boot time. After a restart it reads the
   * history instead of asking again; a cycle the restart interrupted before the BMC answered is
   * asked for once more (the node is drained, so a second cycle harms nothing).
   */
  @Component(service = RemediationStep.class)
  public static final class PowerCycle implements RemediationStep {
    private final MachineService machines;

    @Activate
    public PowerCycle(@Reference MachineService machines) {
      this.machines = machines;
    }

    @Override
    public String name() {
      return "power-cycle";
    }

    @Override
    public boolean destructive() {
      return true;
    }

    @Override
    public String describe(StepContext ctx, Map<String, String> parameters) {
      return ctx.machine()
          .map(
              m ->
                  "power-cycle machine "
                      + m.id()
                      + " through its BMC"
                      + (m.bmc() == null
                          ? " (it has none: the run would fail here)"
                          : " " + m.bmc())
                      + ", then wait "
                      + parameters.getOrDefault("bootSeconds", "30")
                      + " s for it to boot")
          .orElse(
              "power-cycle "
                  + ctx.hostname()
                  + ": no managed machine is linked, the run would fail here");
    }

    @Override
    public StepOutcome perform(StepContext ctx) {
      Optional<Machine> found = ctx.machine();
      if (found.isEmpty() || found.get().bmc() == null) {
        return StepOutcome.failed(
            "no managed machine with a BMC is linked to node "
                + ctx.node()
                + ": add the machine and its BMC on the Machines page, or take power-cycle out of"
                + " the policy");
      }
      Machine m = found.get();
      int boot = SchedulerSteps.positive(ctx.parameter("bootSeconds", "30"), "bootSeconds");
      String requested = ctx.memo().get("requested");
      if (requested == null) {
        if (!ctx.drained()) {
          return StepOutcome.failed(
              "node "
                  + ctx.node()
                  + " was not found drained in this run: a power cycle could kill the work on it;"
                  + " the policy needs drain and wait-drained before power-cycle");
        }
        return request(ctx, m, "1");
      }
      Instant at = Instant.parse(requested);
      Optional<MachineEvent> result = resultSince(m, at);
      if (result.isEmpty()) {
        if (!m.pending().isEmpty()) {
          return StepOutcome.waitFor(
              Duration.ofSeconds(1), "the BMC of " + m.id() + " is carrying out " + m.pending());
        }
        if (Duration.between(at, ctx.now()).getSeconds() >= 30
            && "1".equals(ctx.memo().get("tries"))) {
          // Asked for, but no BMC operation is pending and none ended: the request never reached
          // the machines service (a restart in between). Asked for once more.
          return request(ctx, m, "2");
        }
        if (Duration.between(at, ctx.now()).toMinutes() >= 10) {
          return StepOutcome.failed(
              "the BMC of machine " + m.id() + " gave no answer to the power cycle in 10 min");
        }
        return StepOutcome.waitFor(
            Duration.ofSeconds(1), "waiting for the BMC of " + m.id() + " to answer");
      }
      MachineEvent e = result.get();
      if (e.operation().endsWith("interrupted") && !"2".equals(ctx.memo().get("tries"))) {
        return request(ctx, m, "2");
      }
      if (!e.operation().endsWith("done")) {
        return StepOutcome.failed(
            "the power cycle of machine " + m.id() + " failed: " + e.reason(),
            Map.of("bmcAnswer", e.reason()));
      }
      Instant doneAt = e.at();
      Duration since = Duration.between(doneAt, ctx.now());
      if (since.getSeconds() < boot) {
        return StepOutcome.waitFor(
            Duration.ofSeconds(boot).minus(since),
            "power cycle done at "
                + doneAt
                + "; waiting "
                + boot
                + " s for "
                + m.id()
                + " to boot");
      }
      return StepOutcome.done(
          "machine " + m.id() + " power-cycled through its BMC (" + e.reason() + ")",
          Map.of(
              "powerCycled",
              doneAt.toString(),
              "power",
              m.power() == null ? PowerState.UNKNOWN.name() : m.power().name()));
    }

    private StepOutcome request(StepContext ctx, Machine m, String tries) {
      Optional<String> refused = machines.refusal(m.id(), MachineOperation.POWER_CYCLE);
      if (refused.isPresent()) {
        if (!m.pending().isEmpty()) {
          return StepOutcome.waitFor(Duration.ofSeconds(2), refused.get());
        }
        return StepOutcome.failed(
            "machine " + m.id() + " cannot be power-cycled now: " + refused.get());
      }
      ctx.remember("tries", tries);
      ctx.remember("requested", ctx.now().toString());
      ctx.ensureActive();
      machines.operate(
          m.id(), MachineOperation.POWER_CYCLE, ctx.reason(), RemediationEngine.BULWARK);
      return StepOutcome.waitFor(
          Duration.ofSeconds(1), "power cycle asked of the BMC of " + m.id());
    }

    private Optional<MachineEvent> resultSince(Machine m, Instant at) {
      List<MachineEvent> history = machines.history(m.id(), 50);
      for (int i = history.size() - 1; i >= 0; i--) {
        MachineEvent e = history.get(i);
        if (e.at().isBefore(at)) {
          break;
        }
        if (e.operation().startsWith("power-cycle ")) {
          return Optional.of(e);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * {@code mark-broken}: the machine goes to Broken with an RMA note: the GPU (index, UUID, serial
   * where the BMC's inventory lists it), the finding and its evidence.
   */
  @Component(service = RemediationStep.class)
  public static final class MarkBroken implements RemediationStep {
    private final MachineService machines;

    @Activate
    public MarkBroken(@Reference MachineService machines) {
      this.machines = machines;
    }

    @Override
    public String name() {
      return "mark-broken";
    }

    @Override
    public boolean destructive() {
      return true;
    }

    @Override
    public boolean disturbsWork() {
      return false; // records the machine broken for a person; it touches no running work
    }

    @Override
    public String describe(StepContext ctx, Map<String, String> parameters) {
      return "mark "
          + ctx.machine()
              .map(m -> "machine " + m.id())
              .orElse(ctx.hostname() + " (no managed machine: the run would fail here)")
          + " Broken with an RMA note for "
          + gpuWords(ctx.finding());
    }

    @Override
    public StepOutcome perform(StepContext ctx) {
      Optional<Machine> found = ctx.machine();
      Map<String, String> note = rmaNote(ctx, found);
      if (found.isEmpty()) {
        return StepOutcome.failed(
            "no managed machine is linked to node "
                + ctx.node()
                + ": take it out of service by hand and file the RMA note kept with this run",
            note);
      }
      Machine m = found.get();
      if (m.state() == MachineState.BROKEN) {
        return StepOutcome.done("machine " + m.id() + " is Broken", note);
      }
      String text = "RMA: " + note.get("rma");
      ctx.ensureActive();
      if (m.state() == MachineState.REMEDIATING) {
        machines.operate(
            m.id(),
            MachineOperation.ABORT,
            "remediation hands the machine over as Broken",
            RemediationEngine.BULWARK);
      }
      machines.operate(m.id(), MachineOperation.MARK_BROKEN, text, RemediationEngine.BULWARK);
      return StepOutcome.done("machine " + m.id() + " marked Broken: " + note.get("rma"), note);
    }

    private Map<String, String> rmaNote(StepContext ctx, Optional<Machine> machine) {
      Finding f = ctx.finding();
      Map<String, String> note = new LinkedHashMap<>();
      String serial = "";
      if (machine.isPresent() && f.gpu() >= 0) {
        Optional<BmcInventory> inv = machines.inventory(machine.get().id());
        serial = inv.flatMap(i -> serialOf(i, f)).orElse("");
      }
      note.put("gpu", f.gpu() < 0 ? "" : Integer.toString(f.gpu()));
      note.put(
          "gpuUuid", f.gpuUuid().isEmpty() ? f.evidence().getOrDefault("uuid", "") : f.gpuUuid());
      note.put("gpuSerial", serial);
      note.put("finding", f.id());
      note.put("kind", f.kind());
      note.put("summary", f.summary());
      note.put("firstSeen", f.firstSeen().toString());
      note.put(
          "rma",
          gpuWords(f)
              + (serial.isEmpty() ? "" : ", serial " + serial)
              + " on "
              + ctx.hostname()
              + ": "
              + f.summary()
              + " (finding "
              + f.id()
              + ", first seen "
              + f.firstSeen()
              + ")");
      new TreeMap<>(f.evidence()).forEach((k, v) -> note.putIfAbsent("evidence." + k, v));
      return note;
    }

    private static Optional<String> serialOf(BmcInventory inv, Finding f) {
      String uuid = f.gpuUuid().isEmpty() ? f.evidence().getOrDefault("uuid", "") : f.gpuUuid();
      return inv.of(BmcInventory.Kind.GPU).stream()
          .filter(
              g -> !uuid.isEmpty() && uuid.equalsIgnoreCase(g.details().getOrDefault("uuid", "")))
          .map(BmcInventory.Component::serial)
          .filter(s -> s != null && !s.isEmpty())
          .findFirst();
    }

    private static String gpuWords(Finding f) {
      String uuid = f.gpuUuid().isEmpty() ? f.evidence().getOrDefault("uuid", "") : f.gpuUuid();
      return f.gpu() < 0
          ? "the node"
          : "GPU " + f.gpu() + (uuid.isEmpty() ? "" : " (" + uuid + ")");
    }
  }
}
