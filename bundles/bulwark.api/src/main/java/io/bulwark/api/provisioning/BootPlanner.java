package io.bulwark.api.provisioning;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Decides what booting machines do and takes what their boot environment reports. Registered as an
 * OSGi service by the provisioning area; the provisioning plane calls it for every iPXE script and
 * every report (on worker threads: it may read and write the store).
 *
 * @since 1.0
 */
@ConsumerType
public interface BootPlanner {

  /**
   * Returns what the machine with hardware address {@code mac} (lower case, colons) boots for now:
   * {@link BootPurpose#ENLIST} for a MAC no machine has, {@link BootPurpose#LOCAL} for a machine
   * with nothing to do over the network.
   */
  BootPurpose purpose(String mac);

  /**
   * Returns what the boot environment needs besides its mode for the machine's boot, as kernel
   * arguments without their {@code bulwark.} prefix (e.g. {@code image}: a path under the plane's
   * {@code /boot/}, {@code sha256}, {@code size}, {@code erase}, {@code tests}: a comma-separated
   * list); values are words, paths, comma-separated words and hex digits only, and never secret.
   * Empty by default.
   */
  default Map<String, String> kernelArguments(String mac) {
    return Map.of();
  }

  /**
   * Returns a file of the NoCloud seed a deployed machine's cloud-init reads from the plane ({@code
   * user-data}, {@code meta-data} or {@code vendor-data}), for the deployment whose seed token is
   * {@code token}; empty if there is none (unknown token, machine no longer deployed). Empty by
   * default.
   */
  default Optional<String> cloudInit(String token, String file) {
    return Optional.empty();
  }

  /**
   * Takes lines the boot environment of the machine with hardware address {@code mac} logged during
   * a boot whose token the plane has checked (its report may have used it up), for an operator to
   * read while it runs and after it stopped or missed its report. {@code boot} names the boot (the
   * same for every line of one boot, another for the next; never the token). Ignored by default.
   *
   * @since 1.1
   */
  default void progress(String mac, String boot, List<String> lines) {}

  /**
   * Takes a report whose one-time token the plane has checked, and returns a line of text for the
   * boot environment's log.
   *
   * @throws IllegalArgumentException if the report cannot be taken (malformed, from a machine in
   *     another state); the message says why, and the boot environment shows it
   */
  String report(BootReport report);
}
