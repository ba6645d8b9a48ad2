package io.bulwark.api.machine;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of a machine's history: a change of state (or, with {@code from == to}, an operation
 * that left the state as it was: a power action, a lock), who asked and why.
 *
 * @param seq the entry's number in the machine's history, from 1
 * @param machine the machine
 * @param at when
 * @param operation what was done: an operation's API name, or {@code complete}, {@code fail},
 *     {@code timeout}, {@code restart} for the ends Bulwark itself records
 * @param from the state before
 * @param to the state after
 * @param by who: a user or token, or {@code bulwark} for the appliance itself
 * @param reason why, in words
 */
public record MachineEvent(
    long seq,
    MachineId machine,
    Instant at,
    String operation,
    MachineState from,
    MachineState to,
    String by,
    String reason) {
  /** Requires every field. */
  public MachineEvent {
    Objects.requireNonNull(machine, "machine");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(by, "by");
    reason = reason == null ? "" : reason;
  }
}
