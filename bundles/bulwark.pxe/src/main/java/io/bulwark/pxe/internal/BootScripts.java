package io.bulwark.pxe.internal;

import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineService;
import io.bulwark.api.machine.MachineState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The iPXE script a machine gets when it boots from the network, chosen from its state: a MAC no
 * machine has boots the enlistment environment; a machine being commissioned, tested, deployed or
 * rescued boots the boot environment in that mode; every other machine (Deployed, Ready, Broken,
 * ...) exits to its local disk. The scripts hold no secret.
 */
final class BootScripts {
  static final Pattern MAC = Pattern.compile("([0-9a-f]{2}-){5}[0-9a-f]{2}");
  static final String KERNEL = "env/vmlinuz";
  static final String INITRD = "env/initrd.img";

  private final String base;
  private final Path bootRoot;
  private final Supplier<MachineService> machines;

  BootScripts(String base, Path bootRoot, Supplier<MachineService> machines) {
    this.base = base;
    this.bootRoot = bootRoot;
    this.machines = machines;
  }

  /** What a script makes the machine do. */
  enum Purpose {
    ENLIST,
    COMMISSION,
    TEST,
    DEPLOY,
    RESCUE,
    LOCAL
  }

  /** Returns the purpose of the next boot of {@code mac} (lower case, colons). */
  Purpose purpose(String mac) {
    MachineService service = machines.get();
    if (service == null) {
      return Purpose.LOCAL;
    }
    Optional<Machine> machine =
        service.machines().stream().filter(m -> m.macs().contains(mac)).findFirst();
    if (machine.isEmpty()) {
      return Purpose.ENLIST;
    }
    MachineState s = machine.get().state();
    return switch (s) {
      case COMMISSIONING -> Purpose.COMMISSION;
      case TESTING -> Purpose.TEST;
      case DEPLOYING -> Purpose.DEPLOY;
      case ENTERING_RESCUE_MODE, RESCUE_MODE -> Purpose.RESCUE;
      case DISK_ERASING -> Purpose.COMMISSION;
      default -> Purpose.LOCAL;
    };
  }

  /** Returns the script for the machine with hardware address {@code mac} (hyphens, as in URLs). */
  String script(String hyphenated) {
    String mac = hyphenated.toLowerCase(Locale.ROOT).replace('-', ':');
    Purpose purpose = purpose(mac);
    StringBuilder s = new StringBuilder("#!ipxe\n");
    if (purpose == Purpose.LOCAL) {
      s.append("echo Bulwark: ").append(mac).append(" boots from its local disk\n");
      s.append("exit\n");
      return s.toString();
    }
    String mode = purpose.name().toLowerCase(Locale.ROOT);
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
      return s.toString();
    }
    s.append("echo Bulwark: ").append(mac).append(" boots the boot environment to ").append(mode);
    s.append('\n');
    s.append("kernel ")
        .append(base)
        .append("/boot/")
        .append(KERNEL)
        .append(" initrd=initrd.img console=tty0 console=ttyS0,115200")
        .append(" bulwark.mode=")
        .append(mode)
        .append(" bulwark.url=")
        .append(base)
        .append(" bulwark.mac=")
        .append(mac)
        .append(" BOOTIF=01-")
        .append(hyphenated.toLowerCase(Locale.ROOT))
        .append('\n');
    s.append("initrd ").append(base).append("/boot/").append(INITRD).append('\n');
    s.append("boot || goto failed\n");
    s.append(":failed\n");
    s.append("echo Bulwark: the boot environment did not start; retrying in 30 s\n");
    s.append("sleep 30\n");
    s.append("reboot\n");
    return s.toString();
  }
}
