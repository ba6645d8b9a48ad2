package io.bulwark.api.remediation;

import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineOperation;
import java.util.List;
import java.util.Optional;

/**
 * The remediation guardrails applied to what a person asks of a machine directly: a power-off,
 * power cycle, release, disk erase or rescue of a deployed machine takes it out of service as a
 * remediation run would, so it passes the same checks (the kill switch, the circuit breaker, the
 * site's isolation limit, the nodes a scheduler partition keeps). The machines API asks before it
 * acts; an admin may override a refusal with a written reason. Provided by the remediation bundle;
 * without it, the machines API refuses such operations unless overridden.
 */
@org.osgi.annotation.versioning.ProviderType
public interface MachineActionGuard {

  /**
   * Returns true if {@code operation} on {@code machine} takes a machine out of service (it is
   * deployed and the operation stops or removes its work), so that the guardrails apply to it.
   */
  boolean guarded(Machine machine, MachineOperation operation);

  /**
   * Returns why {@code operation} on {@code machine} would break a guardrail now, in words for the
   * operator ("isolation limit: 6 of 6 node(s) already out of service (10% of 64 nodes)"), or empty
   * if it may go ahead or is not {@link #guarded}. May ask the node's scheduler (bounded by its
   * timeout); called on a worker thread, never the event loop.
   */
  Optional<String> refusal(Machine machine, MachineOperation operation);

  /**
   * Returns the jobs the node's scheduler lists on {@code hostname} (their ids), for the operator's
   * confirmation; empty if it runs none, no scheduler knows it, or the scheduler cannot be asked.
   */
  List<String> jobs(String hostname);
}
