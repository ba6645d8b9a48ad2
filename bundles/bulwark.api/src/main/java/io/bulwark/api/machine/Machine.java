package io.bulwark.api.machine;

import io.bulwark.api.fleet.NodeId;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A managed server as Bulwark keeps it.
 *
 * @param id its id
 * @param hostname its host name
 * @param macs the MAC addresses of its network interfaces (lower case, ':'-separated)
 * @param bmc its BMC, or null for a machine known only from telemetry
 * @param rack the rack it is in, or ""
 * @param zone the zone (room, hall, availability zone), or ""
 * @param tags the site's tags
 * @param state its life-cycle state
 * @param stateReason why it is in that state, in words (who or what put it there and why)
 * @param stateSince when it entered that state
 * @param stateDeadline when an operation under way times out (transient states), else null
 * @param returnState the state an operation under way returns to when it ends well or is aborted
 *     (testing, rescue mode, quarantine, remediation), else null
 * @param owner who allocated it, or ""
 * @param locked true if it is locked against operations that would disturb its work
 * @param node the GPU node telemetry knows it as, or null if not linked
 * @param power its power as last reported
 * @param bmcError the last error talking to its BMC, in words an operator can act on, or ""
 * @param presentedSha256 the fingerprint of the certificate its BMC presented that is not pinned
 *     (waiting for an admin's approval), or ""
 * @param pending the BMC operation requested and not yet carried out (its API name), or ""
 * @param created when it was added
 */
public record Machine(
    MachineId id,
    String hostname,
    List<String> macs,
    BmcEndpoint bmc,
    String rack,
    String zone,
    Set<String> tags,
    MachineState state,
    String stateReason,
    Instant stateSince,
    Instant stateDeadline,
    MachineState returnState,
    String owner,
    boolean locked,
    NodeId node,
    PowerState power,
    String bmcError,
    String presentedSha256,
    String pending,
    Instant created) {

  /** Copies the collections; requires id, hostname, state and the times. */
  public Machine {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(stateSince, "stateSince");
    Objects.requireNonNull(created, "created");
    macs = List.copyOf(macs);
    tags = Set.copyOf(tags);
    rack = rack == null ? "" : rack;
    zone = zone == null ? "" : zone;
    stateReason = stateReason == null ? "" : stateReason;
    owner = owner == null ? "" : owner;
    power = power == null ? PowerState.UNKNOWN : power;
    bmcError = bmcError == null ? "" : bmcError;
    presentedSha256 = presentedSha256 == null ? "" : presentedSha256;
    pending = pending == null ? "" : pending;
  }

  /** Returns the machine in {@code next}, entered at {@code at} for {@code reason}. */
  public Machine withState(
      MachineState next, String reason, Instant at, Instant deadline, MachineState returnTo) {
    return new Machine(
        id,
        hostname,
        macs,
        bmc,
        rack,
        zone,
        tags,
        next,
        reason,
        at,
        deadline,
        returnTo,
        owner,
        locked,
        node,
        power,
        bmcError,
        presentedSha256,
        pending,
        created);
  }

  /** Returns the machine with {@code owner} ("" for none). */
  public Machine withOwner(String newOwner) {
    return new Machine(
        id,
        hostname,
        macs,
        bmc,
        rack,
        zone,
        tags,
        state,
        stateReason,
        stateSince,
        stateDeadline,
        returnState,
        newOwner,
        locked,
        node,
        power,
        bmcError,
        presentedSha256,
        pending,
        created);
  }

  /** Returns the machine locked or unlocked. */
  public Machine withLocked(boolean lock) {
    return new Machine(
        id,
        hostname,
        macs,
        bmc,
        rack,
        zone,
        tags,
        state,
        stateReason,
        stateSince,
        stateDeadline,
        returnState,
        owner,
        lock,
        node,
        power,
        bmcError,
        presentedSha256,
        pending,
        created);
  }

  /**
   * Returns the machine with what its BMC last said: its power, the last error ("" if none) and the
   * unpinned certificate it presented ("" if none).
   */
  public Machine withBmcStatus(PowerState newPower, String error, String presented) {
    return new Machine(
        id,
        hostname,
        macs,
        bmc,
        rack,
        zone,
        tags,
        state,
        stateReason,
        stateSince,
        stateDeadline,
        returnState,
        owner,
        locked,
        node,
        newPower,
        error,
        presented,
        pending,
        created);
  }

  /** Returns the machine with {@code operation} pending at its BMC ("" when none is). */
  public Machine withPending(String operation) {
    return new Machine(
        id,
        hostname,
        macs,
        bmc,
        rack,
        zone,
        tags,
        state,
        stateReason,
        stateSince,
        stateDeadline,
        returnState,
        owner,
        locked,
        node,
        power,
        bmcError,
        presentedSha256,
        operation,
        created);
  }

  /** Returns the machine linked to the GPU node {@code gpuNode} of telemetry (null: unlinked). */
  public Machine withNode(NodeId gpuNode) {
    return new Machine(
        id,
        hostname,
        macs,
        bmc,
        rack,
        zone,
        tags,
        state,
        stateReason,
        stateSince,
        stateDeadline,
        returnState,
        owner,
        locked,
        gpuNode,
        power,
        bmcError,
        presentedSha256,
        pending,
        created);
  }

  /** Returns the machine with its BMC endpoint replaced. */
  public Machine withBmc(BmcEndpoint endpoint) {
    return new Machine(
        id,
        hostname,
        macs,
        endpoint,
        rack,
        zone,
        tags,
        state,
        stateReason,
        stateSince,
        stateDeadline,
        returnState,
        owner,
        locked,
        node,
        power,
        bmcError,
        presentedSha256,
        pending,
        created);
  }
}
