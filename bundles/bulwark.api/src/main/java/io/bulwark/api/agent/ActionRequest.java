package io.bulwark.api.agent;

import java.util.Objects;

/**
 * One action asked of a node agent. The {@code requestId} makes it idempotent: asking again with
 * the same id returns the action already started, never a second one.
 *
 * @param requestId unique per action, 1 to 128 characters of {@code [A-Za-z0-9._:#-]}
 * @param action what to do
 * @param gpu the GPU's index on the node (NVML / nvidia-smi index), 0 to 63
 * @param level the DCGM diagnostic level, 1 to 4 (ignored for a reset)
 */
public record ActionRequest(String requestId, AgentAction action, int gpu, int level) {
  /** The allowed request ids. */
  public static final String ID_PATTERN = "[A-Za-z0-9._:#-]{1,128}";

  /** Checks the fields. */
  public ActionRequest {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(action, "action");
    if (!requestId.matches(ID_PATTERN)) {
      throw new IllegalArgumentException("requestId must match " + ID_PATTERN + ": " + requestId);
    }
    if (gpu < 0 || gpu > 63) {
      throw new IllegalArgumentException("gpu must be 0 to 63, not " + gpu);
    }
    if (action == AgentAction.DCGM_DIAG && (level < 1 || level > 4)) {
      throw new IllegalArgumentException("a DCGM diagnostic level is 1 to 4, not " + level);
    }
  }
}
