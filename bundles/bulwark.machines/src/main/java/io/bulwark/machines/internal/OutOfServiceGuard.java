package io.bulwark.machines.internal;

import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.remediation.MachineActionGuard;
import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiProblem;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The remediation guardrails on the machines API: an operation that takes a deployed machine out of
 * service (power-off, cycle, release, disk erase, rescue) is refused where remediation would be
 * held (kill switch, circuit breaker, isolation limit, a partition's last nodes), unless an admin
 * overrides it with a written reason; the machine's page learns the refusal and the node's running
 * jobs beforehand. Without the remediation bundle nothing can vouch for the fleet, so such an
 * operation needs the override too.
 */
final class OutOfServiceGuard {
  static final String OVERRIDE_HINT = "an admin may override it with a written reason";

  private final Supplier<MachineActionGuard> guard;

  OutOfServiceGuard(Supplier<MachineActionGuard> guard) {
    this.guard = guard;
  }

  /** Returns true if {@code op} on {@code m} passes the guardrails first. */
  static boolean guarded(Machine m, MachineOperation op) {
    return m.state() == MachineState.DEPLOYED && op.takesOutOfService();
  }

  /** Returns why taking {@code m} out of service now breaks a guardrail, or empty. */
  Optional<String> refusal(Machine m, MachineOperation op) {
    if (!guarded(m, op)) {
      return Optional.empty();
    }
    MachineActionGuard g = guard.get();
    if (g == null) {
      return Optional.of(
          "the remediation guardrails are not running (bundle bulwark.remediation), so nothing"
              + " can say whether the fleet can spare "
              + m.hostname());
    }
    return g.refusal(m, op);
  }

  /**
   * Checks {@code op} on {@code m} for the caller before it is done; records in {@code details}
   * what the audit record keeps (the refusal overridden, the jobs running).
   *
   * @return the refusal to answer 409 with, or empty to go ahead
   * @throws ApiProblem 403 if a non-admin asks for an override, 400 if an override has no reason
   */
  Optional<String> check(
      Machine m,
      MachineOperation op,
      Role role,
      boolean override,
      String reason,
      Map<String, String> details) {
    if (!guarded(m, op)) {
      return Optional.empty();
    }
    List<String> jobs = jobs(m);
    if (!jobs.isEmpty()) {
      details.put("runningJobs", String.join(",", jobs));
    }
    Optional<String> refused = refusal(m, op);
    if (refused.isEmpty()) {
      return Optional.empty();
    }
    if (!override) {
      return Optional.of(refused.get() + "; " + OVERRIDE_HINT + " (\"override\": true)");
    }
    if (role != Role.ADMIN) {
      throw ApiProblem.forbidden(
          "only an admin overrides the remediation guardrails; they refuse this now: "
              + refused.get());
    }
    if (reason.isBlank()) {
      throw ApiProblem.invalidBody(
          "an override of the guardrails needs a written 'reason'; they refuse this now: "
              + refused.get());
    }
    details.put("guardrailOverridden", refused.get());
    return Optional.empty();
  }

  /** Returns the jobs the node's scheduler lists on {@code m}, or none. */
  List<String> jobs(Machine m) {
    MachineActionGuard g = guard.get();
    return g == null || m.state() != MachineState.DEPLOYED ? List.of() : g.jobs(m.hostname());
  }

  /**
   * Adds to a deployed machine's detail what its page shows before an operator acts: {@code
   * guardrail} (why taking it out of service is refused now, or null) and {@code runningJobs}.
   */
  JsonObject describe(Machine m, JsonObject json) {
    if (m.state() != MachineState.DEPLOYED) {
      return json;
    }
    return json.put("guardrail", refusal(m, MachineOperation.POWER_OFF).orElse(null))
        .put("runningJobs", new JsonArray(jobs(m)));
  }
}
