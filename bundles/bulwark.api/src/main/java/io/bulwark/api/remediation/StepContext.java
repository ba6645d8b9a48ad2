package io.bulwark.api.remediation;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.machine.Machine;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * What a step sees of its run: the node and machine, the finding that started it, its parameters
 * from the policy, and its memo (what earlier calls of the same step recorded). Provided by the
 * engine; valid for one call.
 */
@org.osgi.annotation.versioning.ProviderType
public interface StepContext {

  /** Returns the run's id. */
  String runId();

  /** Returns the GPU node the run is for. */
  NodeId node();

  /** Returns the node's host name: the name schedulers and BMCs know it by. */
  String hostname();

  /** Returns the managed machine linked to the node, if there is one (now, not when it started). */
  Optional<Machine> machine();

  /** Returns the finding the run was started for (as it was when the run started). */
  Finding finding();

  /** Returns the step's parameters from the policy (never null). */
  Map<String, String> parameters();

  /** Returns a parameter, or {@code fallback}. */
  default String parameter(String name, String fallback) {
    return parameters().getOrDefault(name, fallback);
  }

  /** Returns what earlier calls of this step recorded (never null). */
  Map<String, String> memo();

  /**
   * Records {@code value} under {@code key} for later calls of this step; stored before this
   * returns, so it survives a crash right after.
   *
   * @throws io.bulwark.api.store.StoreUnavailableException if it could not be stored: act on
   *     nothing then
   */
  void remember(String key, String value);

  /** Returns when this step was first called in this run. */
  Instant stepStarted();

  /** Returns how many times the step has been called in this run, this call included. */
  int attempt();

  /**
   * Returns the words naming why the node is being remediated, for scheduler reasons: the finding's
   * kind first, then the run ("xid (run-…): XID 79 on GPU 0 of gpu-a07: …"); connectors add their
   * own prefix.
   */
  String reason();

  /**
   * Returns true if an earlier step of this run found the node drained in its scheduler (a {@code
   * wait-drained} that ended done), or found that no scheduler is configured to run work on it and
   * a person approved this step knowing that any job still on the node is killed. A step that
   * disturbs running work (a GPU reset, a power cycle) refuses to act otherwise.
   */
  boolean drained();

  /**
   * Returns true if the policy marks this step optional: a step that cannot apply to this node (no
   * enrolled node agent, a tool the node lacks) then ends skipped instead of failing the run.
   */
  boolean optional();

  /**
   * Throws if the run is no longer running (cancelled, ended, or the kill switch pulled): a step
   * calls it right before each action it takes, so that nothing is done for a run that stopped.
   *
   * @throws IllegalStateException naming why the run stopped
   */
  void ensureActive();

  /** Returns the time now (the engine's clock). */
  Instant now();
}
