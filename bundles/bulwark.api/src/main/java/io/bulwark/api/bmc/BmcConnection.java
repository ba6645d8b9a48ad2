package io.bulwark.api.bmc;

import io.bulwark.api.machine.PowerState;
import java.util.List;

/**
 * A logged-in connection to one BMC, used by one thread at a time. Every call has its own timeout
 * and never blocks past it; {@link #close()} logs out.
 */
@org.osgi.annotation.versioning.ConsumerType
public interface BmcConnection extends AutoCloseable {

  /** Returns what the BMC says about the system it manages. */
  BmcIdentity identity() throws BmcException;

  /** Returns the system's power as the BMC reports it now. */
  PowerState power() throws BmcException;

  /**
   * Carries out {@code action} with what this BMC offers (e.g. a cycle as off then on where it has
   * no cycle); returns when the BMC has accepted it.
   *
   * @throws BmcException of kind UNSUPPORTED if the BMC offers no way to do it
   */
  void power(PowerAction action) throws BmcException;

  /**
   * Sets where the system boots from next: once, or from now on.
   *
   * @throws BmcException of kind UNSUPPORTED if the BMC does not offer that device
   */
  void setNextBoot(BootDevice device, boolean once) throws BmcException;

  /** Returns the BMC's sensor readings (temperatures, fans, power, voltages, supplies). */
  List<BmcSensor> sensors() throws BmcException;

  /** Returns the newest {@code max} entries of the BMC's event log, newest first. */
  List<BmcLogEntry> eventLog(int max) throws BmcException;

  /**
   * Returns the system's hardware inventory (processors including GPUs, memory, PCIe devices,
   * drives, network ports with MACs, firmware). Slower than the other reads: several requests.
   *
   * @throws BmcException of kind UNSUPPORTED if the protocol or BMC reports no inventory
   * @since 1.1
   */
  default BmcInventory inventory() throws BmcException {
    throw new BmcException(
        BmcException.Kind.UNSUPPORTED, "this BMC driver reads no hardware inventory", null);
  }

  /** Logs out; never throws. */
  @Override
  void close();
}
