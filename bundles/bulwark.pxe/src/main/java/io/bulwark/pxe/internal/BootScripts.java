package io.bulwark.pxe.internal;

import io.bulwark.api.provisioning.BootPlanner;
import io.bulwark.api.provisioning.BootPurpose;
import io.bulwark.api.system.AddressBudget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The iPXE script a machine gets when it boots from the network, from what the {@link BootPlanner}
 * says its boot is for: the boot environment in that mode, with a one-time token for its report, or
 * an exit to the local disk. Without a planner (the provisioning area is not running) every machine
 * boots from its disk. The scripts hold no secret but the token, which is good for one report of
 * that machine's boot only. Anyone on the provisioning network can ask for the script of a MAC they
 * made up, which is an enlistment: each client address gets {@value #ENLIST_BURST} scripts with an
 * enlistment's token, then one every {@value #ENLIST_REFILL_SECONDS} s; past that its scripts say
 * so, carry no token, and retry after {@value #RETRY_SECONDS} s.
 */
final class BootScripts {
  static final Pattern MAC = Pattern.compile("([0-9a-f]{2}-){5}[0-9a-f]{2}");
  static final String KERNEL = "env/vmlinuz";
  static final String INITRD = "env/initrd.img";
  static final int ENLIST_BURST = 10;
  static final int ENLIST_REFILL_SECONDS = 6;
  static final int RETRY_SECONDS = 60;

  private final String base;
  private final Path bootRoot;
  private final Supplier<BootPlanner> planner;
  private final BootTokens tokens;
  private final AddressBudget enlistments;

  BootScripts(String base, Path bootRoot, Supplier<BootPlanner> planner, BootTokens tokens) {
    this.base = base;
    this.bootRoot = bootRoot;
    this.planner = planner;
    this.tokens = tokens;
    this.enlistments = new AddressBudget(ENLIST_BURST, ENLIST_REFILL_SECONDS, tokens.clock());
  }

  /** Returns the purpose of the next boot of {@code mac} (lower case, colons). */
  BootPurpose purpose(String mac) {
    BootPlanner p = planner.get();
    return p == null ? BootPurpose.LOCAL : p.purpose(mac);
  }

  private String extra(String mac) {
    BootPlanner p = planner.get();
    if (p == null) {
      return "";
    }
    StringBuilder s = new StringBuilder();
    for (var e : new java.util.TreeMap<>(p.kernelArguments(mac)).entrySet()) {
      if (!e.getKey().matches("[a-z][a-z0-9-]{0,31}")
          || !e.getValue().matches("[A-Za-z0-9._/,-]{1,255}")) {
        throw new IllegalArgumentException(
            "kernel argument "
                + e.getKey()
                + "="
                + e.getValue()
                + " of "
                + mac
                + " is not a word or path");
      }
      s.append(" bulwark.").append(e.getKey()).append('=').append(e.getValue());
    }
    return s.toString();
  }

  /**
   * A script and the purpose it was written for; {@code refused} says why it carries no token for
   * that purpose (it retries later), or is null.
   */
  record Script(BootPurpose purpose, String text, String refused) {}

  /**
   * Returns the script for the machine with hardware address {@code hyphenated} (as in URLs), asked
   * for by {@code client} (its IP address).
   */
  Script script(String hyphenated, String client) {
    String mac = hyphenated.toLowerCase(Locale.ROOT).replace('-', ':');
    BootPurpose purpose = purpose(mac);
    StringBuilder s = new StringBuilder("#!ipxe\n");
    if (purpose == BootPurpose.LOCAL) {
      s.append("echo Bulwark: ").append(mac).append(" boots from its local disk\n");
      s.append("exit\n");
      return new Script(purpose, s.toString(), null);
    }
    String mode = purpose.mode();
    if (!Files.isRegularFile(bootRoot.resolve(KERNEL))
        || !Files.isRegularFile(bootRoot.resolve(INITRD))) {
      s.append("echo Bulwark: ")
          .append(mac)
          .append(" should boot the boot environment (")
          .append(mode)
          .append("), but it is not installed on the appliance: see docs/operations.md,")
          .append(" \"Provisioning\"\n");
      s.append("sleep 5\n");
      s.append("exit\n");
      return new Script(BootPurpose.LOCAL, s.toString(), null);
    }
    long wait = purpose == BootPurpose.ENLIST ? enlistments.take(client) : 0;
    if (wait > 0) {
      return retry(
          mac,
          purpose,
          client
              + " asked for more enlistments than it may ("
              + ENLIST_BURST
              + ", then one every "
              + ENLIST_REFILL_SECONDS
              + " s)");
    }
    String token = tokens.issue(mac, purpose);
    if (token == null) {
      return retry(mac, purpose, BootTokens.MAX + " boots are under way");
    }
    s.append("echo Bulwark: ").append(mac).append(" boots the boot environment to ").append(mode);
    s.append('\n');
    s.append("kernel ")
        .append(base)
        .append("/boot/")
        .append(KERNEL)
        .append(" initrd=initrd.img console=tty0 console=ttyS0,115200 quiet")
        .append(" bulwark.mode=")
        .append(mode)
        .append(" bulwark.url=")
        .append(base)
        .append(" bulwark.mac=")
        .append(mac)
        .append(" bulwark.token=")
        .append(token)
        .append(extra(mac))
        .append(" BOOTIF=01-")
        .append(hyphenated.toLowerCase(Locale.ROOT))
        .append('\n');
    s.append("initrd ").append(base).append("/boot/").append(INITRD).append('\n');
    s.append("boot || goto failed\n");
    s.append(":failed\n");
    s.append("echo Bulwark: the boot environment did not start; retrying in 30 s\n");
    s.append("sleep 30\n");
    s.append("reboot\n");
    return new Script(purpose, s.toString(), null);
  }

  /** A script without a token: it says why and boots again after a pause. */
  private static Script retry(String mac, BootPurpose purpose, String why) {
    String text =
        "#!ipxe\n"
            + "echo Bulwark: "
            + mac
            + " is not booted to "
            + purpose.mode()
            + " now: "
            + why
            + "; retrying in "
            + RETRY_SECONDS
            + " s\n"
            + "sleep "
            + RETRY_SECONDS
            + "\n"
            + "reboot\n";
    return new Script(purpose, text, why);
  }
}
