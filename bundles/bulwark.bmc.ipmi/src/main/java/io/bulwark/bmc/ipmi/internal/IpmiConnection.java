package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.bmc.BmcIdentity;
import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.BootDevice;
import io.bulwark.api.bmc.PowerAction;
import io.bulwark.api.machine.PowerState;
import io.bulwark.bmc.ipmi.internal.IpmiMessage.Response;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * An RMCP+ session with one BMC, as a {@link BmcConnection}: identity from Get Device ID, Get
 * System GUID and FRU device 0, power through Get Chassis Status and Chassis Control, the next boot
 * through boot flags (Set System Boot Options parameter 5), sensors from the SDR repository and the
 * event log from the SEL. Used by one thread at a time.
 */
final class IpmiConnection implements BmcConnection {
  private static final Duration POLL = Duration.ofMillis(500);

  /** IANA enterprise numbers of common server makers, for BMCs without FRU data. */
  private static final Map<Integer, String> MANUFACTURERS =
      Map.of(
          2, "IBM",
          11, "Hewlett-Packard",
          343, "Intel",
          674, "Dell",
          5703, "NVIDIA",
          7244, "Quanta",
          10876, "Supermicro",
          19046, "Lenovo");

  private final RmcpSession session;
  private final IpmiOptions options;

  IpmiConnection(RmcpSession session, IpmiOptions options) {
    this.session = session;
    this.options = options;
  }

  @Override
  public BmcIdentity identity() throws BmcException {
    byte[] device =
        session.command(IpmiMessage.NETFN_APP, 0x01, new byte[0], "Get Device ID request");
    int manufacturer =
        device.length >= 9
            ? (device[6] & 0xff) | (device[7] & 0xff) << 8 | (device[8] & 0x0f) << 16
            : 0;
    Response guid =
        session.send(0, IpmiMessage.NETFN_APP, 0x37, new byte[0], "Get System GUID request");
    String uuid = guid.completionCode() == 0 && guid.data().length >= 16 ? uuid(guid.data()) : "";
    FruInfo fru = fru();
    return new BmcIdentity(
        fru.manufacturer().isEmpty()
            ? MANUFACTURERS.getOrDefault(manufacturer, "")
            : fru.manufacturer(),
        fru.product(),
        fru.serial(),
        uuid,
        "");
  }

  /**
   * The GUID as a UUID string. BMCs differ in byte order: most send SMBIOS order (first three
   * fields little-endian), the IPMI specification's order is fully reversed. As ipmitool's
   * automatic choice does, the SMBIOS reading is taken if its version nibble is a valid UUID
   * version (1 to 5), else the IPMI reading if its is, else the SMBIOS reading.
   */
  static String uuid(byte[] g) {
    byte[] smbios = {
      g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9], g[10], g[11], g[12], g[13], g[14],
      g[15]
    };
    byte[] ipmi = new byte[16];
    for (int i = 0; i < 16; i++) {
      ipmi[i] = g[15 - i];
    }
    byte[] u = validVersion(smbios) || !validVersion(ipmi) ? smbios : ipmi;
    String h = HexFormat.of().formatHex(u);
    return h.substring(0, 8)
        + "-"
        + h.substring(8, 12)
        + "-"
        + h.substring(12, 16)
        + "-"
        + h.substring(16, 20)
        + "-"
        + h.substring(20);
  }

  private static boolean validVersion(byte[] uuid) {
    int version = (uuid[6] & 0xf0) >>> 4;
    return version >= 1 && version <= 5;
  }

  /** FRU device 0, or {@link FruInfo#NONE} where the BMC has none or refuses to read it. */
  private FruInfo fru() throws BmcException {
    try {
      byte[] area =
          session.command(
              IpmiMessage.NETFN_STORAGE,
              0x10,
              new byte[] {0},
              "Get FRU Inventory Area Info request");
      int size = Math.min(area.length >= 2 ? (area[0] & 0xff) | (area[1] & 0xff) << 8 : 0, 2048);
      ByteArrayOutputStream fru = new ByteArrayOutputStream();
      while (fru.size() < size) {
        int offset = fru.size();
        int count = Math.min(16, size - offset);
        byte[] part =
            session.command(
                IpmiMessage.NETFN_STORAGE,
                0x11,
                new byte[] {0, (byte) offset, (byte) (offset >>> 8), (byte) count},
                "Read FRU Data request");
        if (part.length < 2 || (part[0] & 0xff) == 0) {
          break;
        }
        fru.write(part, 1, Math.min(part[0] & 0xff, part.length - 1));
      }
      return FruInfo.parse(fru.toByteArray());
    } catch (BmcException e) {
      if (e.retryable()) {
        throw e;
      }
      return FruInfo.NONE;
    }
  }

  @Override
  public PowerState power() throws BmcException {
    byte[] status =
        session.command(IpmiMessage.NETFN_CHASSIS, 0x01, new byte[0], "Get Chassis Status request");
    if (status.length < 1) {
      throw new BmcException(
          Kind.PROTOCOL, "BMC " + session.bmc() + " sent an empty chassis status", null);
    }
    return (status[0] & 0x01) != 0 ? PowerState.ON : PowerState.OFF;
  }

  @Override
  public void power(PowerAction action) throws BmcException {
    switch (action) {
      case ON -> control(0x01, "power up");
      case OFF -> control(0x00, "power down");
      case SOFT_OFF -> {
        control(0x05, "soft shutdown");
        if (!waitFor(PowerState.OFF, options.softOff())) {
          // The operating system did not shut down in time: off at once, as for Redfish.
          control(0x00, "power down");
        }
      }
      case CYCLE -> {
        if (power() == PowerState.OFF) {
          control(0x01, "power up"); // IPMI's power cycle does nothing to a system that is off
        } else {
          control(0x02, "power cycle");
        }
      }
      default -> throw new IllegalArgumentException(action.toString());
    }
  }

  private void control(int code, String what) throws BmcException {
    Response r =
        session.send(
            0,
            IpmiMessage.NETFN_CHASSIS,
            0x02,
            new byte[] {(byte) code},
            "Chassis Control request");
    if (r.completionCode() == 0xcc || r.completionCode() == 0xc1) {
      throw new BmcException(
          Kind.UNSUPPORTED,
          "BMC "
              + session.bmc()
              + " does not offer chassis "
              + what
              + String.format(
                  " (completion code 0x%02x: %s)",
                  r.completionCode(), IpmiCodes.completion(r.completionCode())),
          null);
    } else if (r.completionCode() != 0) {
      throw session.failed("Chassis Control request (" + what + ")", r.completionCode());
    }
  }

  private boolean waitFor(PowerState wanted, Duration within) throws BmcException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      if (power() == wanted) {
        return true;
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return power() == wanted;
  }

  /**
   * Sets the boot flags. The BMC clears them by itself if the system is not restarted within 60 s
   * (IPMI v2.0 section 28.12), so power on or cycle the machine right after.
   */
  @Override
  public void setNextBoot(BootDevice device, boolean once) throws BmcException {
    byte[] flags = bootFlags(device, once, options.uefiBoot(), session.bmc());
    session.command(
        IpmiMessage.NETFN_CHASSIS, 0x08, flags, "Set System Boot Options request (boot flags)");
  }

  /** Parameter 5 (boot flags) of Set System Boot Options: valid, persistent, EFI, device. */
  static byte[] bootFlags(BootDevice device, boolean once, boolean uefi, String bmc)
      throws BmcException {
    int selector =
        switch (device) {
          case NONE -> 0x0;
          case PXE -> 0x1;
          case DISK -> 0x2;
          case BIOS_SETUP -> 0x6;
          case HTTP ->
              throw new BmcException(
                  Kind.UNSUPPORTED,
                  "BMC "
                      + bmc
                      + " cannot be told to boot over UEFI HTTP: IPMI's boot flags have no"
                      + " such device (only PXE, disk, CD/DVD and BIOS setup); use PXE, or manage this"
                      + " machine over Redfish",
                  null);
        };
    int data1 = 0x80 | (once ? 0 : 0x40) | (uefi ? 0x20 : 0);
    return new byte[] {0x05, (byte) data1, (byte) (selector << 2), 0, 0, 0};
  }

  @Override
  public List<BmcSensor> sensors() throws BmcException {
    return new SdrRepository(session).sensors();
  }

  @Override
  public List<BmcLogEntry> eventLog(int max) throws BmcException {
    return new SystemEventLog(session).newest(max);
  }

  @Override
  public void close() {
    session.close();
  }
}
