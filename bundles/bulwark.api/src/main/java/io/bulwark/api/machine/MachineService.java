package io.bulwark.api.machine;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The machines Bulwark manages and the operations on them. Every change of state is stored before
 * it is acted on and kept as the machine's history; callers audit the requests they serve. Provided
 * by {@code bulwark.machines}; thread-safe.
 */
@org.osgi.annotation.versioning.ProviderType
public interface MachineService {

  /** Returns every machine, by id. */
  List<Machine> machines();

  /** Returns the machine, if it is known. */
  Optional<Machine> machine(MachineId id);

  /** Returns the machine's history, oldest first (at most the newest {@code limit} entries). */
  List<MachineEvent> history(MachineId id, int limit);

  /** Returns what the machine allows now (by state and lock). Empty for an unknown machine. */
  Set<MachineOperation> allowed(MachineId id);

  /**
   * Returns why {@code operation} is refused on the machine now (its state, its lock, no BMC), in
   * words naming the state, or empty if it is allowed.
   *
   * @throws java.util.NoSuchElementException if the machine is unknown
   */
  Optional<String> refusal(MachineId id, MachineOperation operation);

  /**
   * Adds a machine in state New. {@code username} and {@code password} (for its BMC; both null when
   * it has none) are sealed into the secret store, never stored with the machine.
   *
   * @throws IllegalArgumentException if the id is taken or a value is unusable; the message says
   *     which
   * @throws io.bulwark.api.store.StoreUnavailableException if it could not be stored
   */
  Machine add(NewMachine machine, String username, char[] password, String by);

  /**
   * Runs {@code operation} on the machine for {@code reason}: moves it to the state the operation
   * leads to (stored, with the history entry, before anything is acted on) and returns it. An
   * operation whose work is not done by this service (commissioning, deployment…) leaves the
   * machine in the transient state until its owner reports the end ({@link #complete}, {@link
   * #fail}) or the state's timeout fails it.
   *
   * @throws java.util.NoSuchElementException if the machine is unknown
   * @throws MachineRefusedException if its state or lock does not allow the operation
   * @throws io.bulwark.api.store.StoreUnavailableException if it could not be stored; nothing
   *     changed
   */
  Machine operate(MachineId id, MachineOperation operation, String reason, String by);

  /**
   * Sets where the machine boots from next through its BMC, once or from now on; like the power
   * operations it is recorded as pending, carried out in the background and its result kept in the
   * history.
   *
   * @throws MachineRefusedException if the machine has no BMC, no driver for it, or is locked
   */
  Machine setNextBoot(
      MachineId id, io.bulwark.api.bmc.BootDevice device, boolean once, String reason, String by);

  /**
   * Pins the certificate the machine's BMC presented: {@code sha256} must be the fingerprint its
   * last probe saw ({@link Machine#presentedSha256()}), so an admin approves exactly what was
   * shown.
   *
   * @throws MachineRefusedException if nothing waits for approval or another fingerprint does
   */
  Machine pinCertificate(MachineId id, String sha256, String by);

  /**
   * Ends the operation under way on the machine well: it moves to the state the operation leads to.
   *
   * @throws MachineRefusedException if no operation is under way
   */
  Machine complete(MachineId id, String reason, String by);

  /**
   * Ends the operation under way on the machine as failed: it moves to the matching Failed state.
   *
   * @throws MachineRefusedException if no operation is under way
   */
  Machine fail(MachineId id, String reason, String by);

  /**
   * Returns the latest BMC readings of every machine whose BMC has been polled, by machine id. In
   * memory: never blocks on a BMC.
   *
   * @since 1.1
   */
  List<MachineReadings> readings();

  /**
   * Gives the machine its BMC, or a new one (an enlisted machine whose boot environment could not
   * read its BMC; a replaced board): {@code username} and {@code password} are sealed into the
   * secret store as for {@link #add}; the BMC's status is cleared and its certificate is pinned as
   * {@code bmc} says or waits for an admin's approval at the next probe.
   *
   * @throws IllegalArgumentException if a value is unusable; the message says which
   * @throws MachineRefusedException if a BMC operation is under way on the machine
   * @throws java.util.NoSuchElementException if the machine is unknown
   * @since 1.2
   */
  Machine setBmc(MachineId id, BmcEndpoint bmc, String username, char[] password, String by);

  /**
   * Returns the hardware inventory the machine's BMC reported at its latest probe, if any.
   *
   * @since 1.1
   */
  Optional<io.bulwark.api.bmc.BmcInventory> inventory(MachineId id);
}
