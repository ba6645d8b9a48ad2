package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.bmc.ipmi.internal.Wire.MalformedException;
import java.time.Instant;
import java.util.Set;

/**
 * Decodes one 16-byte System Event Log record (IPMI v2.0 section 32) into a {@link BmcLogEntry}:
 * the sensor type's name, what the event offset means for the common failures (threshold crossings,
 * memory ECC, processor IERR and machine checks, critical interrupts and PCIe bus errors, power
 * unit and supply failures), and a severity. Timestamps under 20000000h count from the BMC's
 * initialization, not 1970, and give no time.
 */
final class SelRecord {
  private static final String[] SENSOR_TYPES = {
    "Reserved",
    "Temperature",
    "Voltage",
    "Current",
    "Fan",
    "Physical Security",
    "Platform Security",
    "Processor",
    "Power Supply",
    "Power Unit",
    "Cooling Device",
    "Other Units-based Sensor",
    "Memory",
    "Drive Slot",
    "POST Memory Resize",
    "System Firmware Progress",
    "Event Logging Disabled",
    "Watchdog 1",
    "System Event",
    "Critical Interrupt",
    "Button / Switch",
    "Module / Board",
    "Microcontroller / Coprocessor",
    "Add-in Card",
    "Chassis",
    "Chip Set",
    "Other FRU",
    "Cable / Interconnect",
    "Terminator",
    "System Boot / Restart Initiated",
    "Boot Error",
    "Base OS Boot / Installation Status",
    "OS Stop / Shutdown",
    "Slot / Connector",
    "System ACPI Power State",
    "Watchdog 2",
    "Platform Alert",
    "Entity Presence",
    "Monitor ASIC / IC",
    "LAN",
    "Management Subsystem Health",
    "Battery",
    "Session Audit",
    "Version Change",
    "FRU State"
  };
  private static final String[] THRESHOLD = {
    "lower non-critical going low", "lower non-critical going high",
    "lower critical going low", "lower critical going high",
    "lower non-recoverable going low", "lower non-recoverable going high",
    "upper non-critical going low", "upper non-critical going high",
    "upper critical going low", "upper critical going high",
    "upper non-recoverable going low", "upper non-recoverable going high"
  };
  private static final String[] PROCESSOR = {
    "IERR",
    "thermal trip",
    "FRB1/BIST failure",
    "FRB2/hang in POST",
    "FRB3/processor startup" + " failure",
    "configuration error",
    "uncorrectable CPU-complex error",
    "presence detected",
    "processor disabled",
    "terminator presence detected",
    "processor throttled",
    "machine check exception (uncorrectable)",
    "correctable machine check error"
  };
  private static final String[] POWER_SUPPLY = {
    "presence detected", "power supply failure detected", "predictive failure",
    "input lost (AC/DC)", "input lost or out of range", "input out of range but present",
    "configuration error", "inactive (standby)"
  };
  private static final String[] POWER_UNIT = {
    "power off / down",
    "power cycle",
    "240VA power down",
    "interlock power down",
    "AC lost / power input lost",
    "soft power control failure",
    "power unit failure detected",
    "predictive failure"
  };
  private static final String[] MEMORY = {
    "correctable ECC",
    "uncorrectable ECC",
    "parity error",
    "memory scrub failed",
    "memory device disabled",
    "correctable ECC logging limit reached",
    "presence detected",
    "configuration error",
    "spare",
    "memory automatically throttled",
    "critical overtemperature"
  };
  private static final String[] CRITICAL_INTERRUPT = {
    "front panel NMI / diagnostic interrupt",
    "bus timeout",
    "I/O channel check NMI",
    "software NMI",
    "PCI PERR",
    "PCI SERR",
    "EISA fail-safe timeout",
    "bus correctable error",
    "bus uncorrectable error",
    "fatal NMI",
    "bus fatal error (e.g. PCIe fatal)",
    "bus degraded"
  };

  /** Sensor-specific offsets (type << 8 | offset) that are failures: Critical. */
  private static final Set<Integer> CRITICAL =
      Set.of(
          0x0700, 0x0701, 0x0706, 0x070b, 0x0801, 0x0905, 0x0906, 0x0c01, 0x0c02, 0x0c0a, 0x1304,
          0x1305, 0x1308, 0x1309, 0x130a);

  /** Sensor-specific offsets that need attention but are no failure yet: Warning. */
  private static final Set<Integer> WARNING =
      Set.of(
          0x0702, 0x0703, 0x0704, 0x0705, 0x070a, 0x070c, 0x0802, 0x0803, 0x0804, 0x0805, 0x0806,
          0x0904, 0x0907, 0x0c00, 0x0c03, 0x0c04, 0x0c05, 0x0c09, 0x1300, 0x1301, 0x1302, 0x1303,
          0x1307, 0x130b);

  private SelRecord() {}

  static String sensorTypeName(int type) {
    if (type < SENSOR_TYPES.length && type > 0) {
      return SENSOR_TYPES[type];
    }
    return type >= 0xc0
        ? String.format("OEM sensor type 0x%02x", type)
        : String.format("sensor type 0x%02x", type);
  }

  static BmcLogEntry decode(byte[] r) throws MalformedException {
    Wire.need(r, 16);
    String id = Integer.toString(Wire.u16(r, 0));
    int recordType = Wire.u8(r, 2);
    if (recordType >= 0xe0) {
      return new BmcLogEntry(
          id, null, "OK", String.format("OEM record type 0x%02x (no timestamp)", recordType), "");
    }
    Instant created = instant(Wire.u32(r, 3));
    if (recordType != 0x02) {
      return new BmcLogEntry(
          id,
          created,
          "OK",
          String.format(
              "OEM record type 0x%02x from manufacturer %d", recordType, Wire.u32(r, 7) & 0xffffff),
          "");
    }
    int sensorType = Wire.u8(r, 10);
    int sensor = Wire.u8(r, 11);
    boolean deasserted = (r[12] & 0x80) != 0;
    int eventType = r[12] & 0x7f;
    int offset = r[13] & 0x0f;
    String meaning;
    String severity;
    if (eventType == 0x01) {
      meaning = offset < THRESHOLD.length ? THRESHOLD[offset] : "threshold offset " + offset;
      severity = offset == 0 || offset == 1 || offset == 6 || offset == 7 ? "Warning" : "Critical";
    } else if (eventType == 0x6f) {
      meaning = sensorSpecific(sensorType, offset);
      int key = sensorType << 8 | offset;
      severity = CRITICAL.contains(key) ? "Critical" : WARNING.contains(key) ? "Warning" : "OK";
    } else {
      meaning = String.format("event type 0x%02x, offset %d", eventType, offset);
      severity = "OK";
    }
    String name = sensorTypeName(sensorType);
    String message =
        String.format(
            "%s sensor 0x%02x: %s%s", name, sensor, meaning, deasserted ? " (deasserted)" : "");
    return new BmcLogEntry(id, created, deasserted ? "OK" : severity, message, name);
  }

  private static String sensorSpecific(int type, int offset) {
    String[] table =
        switch (type) {
          case 0x07 -> PROCESSOR;
          case 0x08 -> POWER_SUPPLY;
          case 0x09 -> POWER_UNIT;
          case 0x0c -> MEMORY;
          case 0x13 -> CRITICAL_INTERRUPT;
          default -> new String[0];
        };
    return offset < table.length ? table[offset] : "offset " + offset;
  }

  /** Seconds since 1970; null before 20000000h (since BMC init) and for FFFFFFFFh (unknown). */
  static Instant instant(int seconds) {
    long s = seconds & 0xffffffffL;
    return s < 0x20000000L || s == 0xffffffffL ? null : Instant.ofEpochSecond(s);
  }
}
