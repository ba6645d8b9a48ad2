package io.bulwark.remediation.internal;

import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineOperation;
import io.bulwark.api.machine.MachineState;
import io.bulwark.api.remediation.MachineActionGuard;
import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import java.util.List;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The remediation guardrails for what a person asks of a deployed machine directly (a power-off,
 * power cycle, release, disk erase or rescue): the machines API asks it before acting, so that a
 * run of power-offs by hand stops at the same isolation limit, partition reserve, circuit breaker
 * and kill switch as remediation does; the operator's confirmation names the node's running jobs.
 */
@Component(service = MachineActionGuard.class)
public final class MachineActionGuardrails implements MachineActionGuard {
  private final RemediationEngine engine;
  private final Schedulers schedulers;

  @Activate
  public MachineActionGuardrails(
      @Reference RemediationEngine engine, @Reference Schedulers schedulers) {
    this.engine = engine;
    this.schedulers = schedulers;
  }

  @Override
  public boolean guarded(Machine machine, MachineOperation operation) {
    return machine.state() == MachineState.DEPLOYED && operation.takesOutOfService();
  }

  @Override
  public Optional<String> refusal(Machine machine, MachineOperation operation) {
    return guarded(machine, operation) ? engine.handRefusal(machine) : Optional.empty();
  }

  @Override
  public List<String> jobs(String hostname) {
    try {
      return schedulers
          .locate(hostname)
          .map(Schedulers.Located::node)
          .map(SchedulerNode::jobs)
          .orElse(List.of());
    } catch (SchedulerException e) {
      return List.of();
    }
  }
}
