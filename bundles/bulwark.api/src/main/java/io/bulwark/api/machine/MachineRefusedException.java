package io.bulwark.api.machine;

/**
 * An operation the machine's state (or lock) does not allow. The message says which machine, which
 * state and what is allowed instead; the web API answers it as 409 Conflict.
 */
public final class MachineRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient MachineId machine;
  private final MachineState state;
  private final MachineOperation operation;

  /** Creates the refusal of {@code operation} on {@code machine} in {@code state}. */
  public MachineRefusedException(
      MachineId machine, MachineState state, MachineOperation operation, String message) {
    super(message);
    this.machine = machine;
    this.state = state;
    this.operation = operation;
  }

  /** Returns the machine. */
  public MachineId machine() {
    return machine;
  }

  /** Returns the state it was in. */
  public MachineState state() {
    return state;
  }

  /** Returns what was refused. */
  public MachineOperation operation() {
    return operation;
  }
}
