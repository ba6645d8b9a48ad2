package io.bulwark.api.agent;

import java.util.Arrays;
import java.util.Optional;

/** What a node agent can be asked to do on one GPU. */
public enum AgentAction {
  /** {@code nvidia-smi --gpu-reset -i N}: the GPU must be idle (its node drained). */
  GPU_RESET("gpu-reset"),
  /** {@code dcgmi diag -r LEVEL -i N}: DCGM's diagnostics at level 1 to 4. */
  DCGM_DIAG("dcgm-diag");

  private final String wire;

  AgentAction(String wire) {
    this.wire = wire;
  }

  /** Returns the name on the wire and in the UI, e.g. {@code gpu-reset}. */
  public String wire() {
    return wire;
  }

  /** Returns the action named {@code wire}, or empty. */
  public static Optional<AgentAction> of(String wire) {
    return Arrays.stream(values()).filter(a -> a.wire.equals(wire)).findFirst();
  }
}
