package io.bulwark.api.agent;

import java.time.Instant;
import java.util.Objects;

/**
 * Where an action stands on the node, as its agent answered (signed).
 *
 * @param requestId the request's id
 * @param action what was asked
 * @param gpu the GPU's index
 * @param state running, succeeded or failed
 * @param exitCode the tool's exit status; -1 while running or if it could not be started
 * @param summary one line for an operator, e.g. "GPU 3 reset" or "diag level 2: 1 test failed
 *     (Memory)"
 * @param output the tool's output, at most 16 KiB (its end kept)
 * @param started when the agent started it
 * @param finished when it ended, or null while running
 */
public record ActionResult(
    String requestId,
    AgentAction action,
    int gpu,
    State state,
    int exitCode,
    String summary,
    String output,
    Instant started,
    Instant finished) {

  /** The states of an action. */
  public enum State {
    RUNNING,
    SUCCEEDED,
    FAILED
  }

  /** Checks the fields. */
  public ActionResult {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(state, "state");
    summary = summary == null ? "" : summary;
    output = output == null ? "" : output;
  }
}
