package io.bulwark.remediation.internal;

import io.bulwark.api.scheduler.SchedulerConnector;
import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An in-memory scheduler for the engine's tests: the engine's decisions (guardrails, resume after a
 * restart) are what is tested here. The real connectors are tested against their schedulers: Slurm
 * against a real slurmctld in bulwark.scheduler.slurm, and end to end in the appliance's tests.
 */
final class FakeScheduler implements SchedulerConnector {
  final Map<String, SchedulerNode> nodes = new LinkedHashMap<>();
  final List<String> calls = new ArrayList<>();
  volatile boolean unreachable;

  FakeScheduler(int count, String pool) {
    for (int i = 0; i < count; i++) {
      String n = String.format("node-%03d", i);
      nodes.put(
          n, new SchedulerNode(n, SchedulerState.AVAILABLE, "IDLE", "", Set.of(pool), List.of()));
    }
  }

  @Override
  public String name() {
    return "fake";
  }

  @Override
  public synchronized List<SchedulerNode> nodes() throws SchedulerException {
    check();
    return List.copyOf(nodes.values());
  }

  @Override
  public synchronized Optional<SchedulerNode> node(String name) throws SchedulerException {
    check();
    return Optional.ofNullable(nodes.get(name));
  }

  @Override
  public synchronized void drain(String node, String reason) throws SchedulerException {
    check();
    calls.add("drain " + node);
    SchedulerNode n = nodes.get(node);
    SchedulerState s = n.jobs().isEmpty() ? SchedulerState.DRAINED : SchedulerState.DRAINING;
    nodes.put(node, new SchedulerNode(node, s, s.name(), reason, n.pools(), n.jobs()));
  }

  @Override
  public synchronized void resume(String node, String reason) throws SchedulerException {
    check();
    calls.add("resume " + node);
    SchedulerNode n = nodes.get(node);
    nodes.put(
        node, new SchedulerNode(node, SchedulerState.AVAILABLE, "IDLE", "", n.pools(), n.jobs()));
  }

  /** Runs a job on the node. */
  synchronized void job(String node, String job) {
    SchedulerNode n = nodes.get(node);
    nodes.put(
        node,
        new SchedulerNode(
            node, n.state(), n.schedulerState(), n.reason(), n.pools(), List.of(job)));
  }

  /** Ends the node's jobs; a draining node becomes drained. */
  synchronized void endJobs(String node) {
    SchedulerNode n = nodes.get(node);
    SchedulerState s = n.state() == SchedulerState.DRAINING ? SchedulerState.DRAINED : n.state();
    nodes.put(node, new SchedulerNode(node, s, s.name(), n.reason(), n.pools(), List.of()));
  }

  synchronized SchedulerState state(String node) {
    return nodes.get(node).state();
  }

  private void check() throws SchedulerException {
    if (unreachable) {
      throw new SchedulerException("fake: slurmctld is not responding");
    }
  }
}
