package io.bulwark.sim.internal;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * One simulated BMC's Redfish resources (DSP0266 / DSP8010 schema shapes: service root, session
 * service, one ComputerSystem with its Reset action and Boot override, one Chassis with Thermal and
 * Power, a SEL log service, processors including the GPUs, memory, Ethernet interfaces and a
 * firmware inventory) and its state: power, boot override with its ETag, event log and faults.
 * Readings move a little with time, from the node's seed, and follow the power. Thread-safe.
 */
final class SimulatedBmc {
  static final String SYSTEM = "/redfish/v1/Systems/1";
  static final String CHASSIS = "/redfish/v1/Chassis/1";
  static final String SEL = SYSTEM + "/LogServices/SEL";
  static final List<String> RESET_TYPES =
      List.of("On", "ForceOff", "GracefulShutdown", "ForceRestart", "PowerCycle");
  private static final List<String> BOOT_TARGETS =
      List.of("None", "Pxe", "UefiHttp", "Hdd", "BiosSetup");
  static final int FANS = 6;
  static final int SUPPLIES = 4;
  static final double FAN_LOWER_CRITICAL = 1_500;

  private final String node;
  private final int index;
  private final int gpus;
  private final long seed;
  private final String serial;
  private final String uuid;
  private String power = "On";
  private String bootTarget = "None";
  private String bootEnabled = "Disabled";
  private long etag = 1;
  private long logSeq;
  private final List<JsonObject> log = new ArrayList<>();
  private final Set<BmcFault> faults = EnumSet.noneOf(BmcFault.class);

  SimulatedBmc(String node, int index, int gpus, long seed, long startMillis) {
    this.node = node;
    this.index = index;
    this.gpus = gpus;
    this.seed = seed ^ (index * 0x9E3779B97F4A7C15L);
    this.serial = String.format(Locale.ROOT, "SIM%07d", index + 1);
    this.uuid = uuid(this.seed);
    logEntry(
        startMillis - 86_400_000L, "OK", "System Event", "Log area reset/cleared", "LogCleared");
    logEntry(startMillis - 3_600_000L, "OK", "System Boot/Restart", "System boot initiated", "");
  }

  String node() {
    return node;
  }

  String serial() {
    return serial;
  }

  synchronized String power() {
    return power;
  }

  synchronized void setPower(String state) {
    power = state;
  }

  synchronized String bootTarget() {
    return bootTarget;
  }

  synchronized String bootEnabled() {
    return bootEnabled;
  }

  synchronized String etag() {
    return "W/\"" + etag + "\"";
  }

  synchronized Set<BmcFault> faults() {
    return Set.copyOf(faults);
  }

  /** Puts a fault on the BMC; an event log fault adds its entry at {@code nowMillis}. */
  synchronized void fault(BmcFault f, long nowMillis) {
    faults.add(f);
    switch (f) {
      case SEL_MEMORY_UE ->
          logEntry(nowMillis, "Critical", "Memory", "Uncorrectable ECC error on DIMM B2", "Assert");
      case SEL_PCIE_FATAL ->
          logEntry(
              nowMillis,
              "Critical",
              "Critical Interrupt",
              "PCIe Bus Fatal Error on slot 3 (GPU 2)",
              "Assert");
      case SEL_MACHINE_CHECK ->
          logEntry(
              nowMillis, "Critical", "Processor", "CPU 1 machine check exception (IERR)", "Assert");
      case SEL_POWER_UNIT ->
          logEntry(nowMillis, "Critical", "Power Unit", "Power Unit Failure detected", "Assert");
      default -> {}
    }
  }

  /** Clears every fault; the event log keeps only its benign entries, as after ClearLog. */
  synchronized void clearFaults() {
    faults.clear();
    log.removeIf(e -> !"OK".equals(e.getString("Severity")));
  }

  /** Empties the event log (the LogService's ClearLog action). */
  synchronized void clearLog(long nowMillis) {
    log.clear();
    faults.removeIf(BmcFault::logged);
    logEntry(nowMillis, "OK", "System Event", "Log area reset/cleared", "LogCleared");
  }

  /**
   * Applies a PATCH of the system: only {@code Boot}'s override target and enabled are writable.
   *
   * @return null if applied, else the problem (message, property)
   */
  synchronized String[] patch(JsonObject body) {
    JsonObject boot = body.getJsonObject("Boot");
    if (boot == null || body.size() != 1) {
      return new String[] {"Only Boot may be changed on this system", "Boot"};
    }
    String target = boot.getString("BootSourceOverrideTarget", bootTarget);
    String enabled = boot.getString("BootSourceOverrideEnabled", bootEnabled);
    if (!BOOT_TARGETS.contains(target)) {
      return new String[] {
        "The value " + target + " for BootSourceOverrideTarget is not allowed",
        "Boot/BootSourceOverrideTarget"
      };
    }
    if (!List.of("Disabled", "Once", "Continuous").contains(enabled)) {
      return new String[] {
        "The value " + enabled + " for BootSourceOverrideEnabled is not allowed",
        "Boot/BootSourceOverrideEnabled"
      };
    }
    bootTarget = target;
    bootEnabled = enabled;
    etag++;
    return null;
  }

  // ---- resources ----

  /** Returns the resource at {@code path}, or empty if there is none. */
  synchronized Optional<JsonObject> resource(String path, long nowMillis) {
    String p =
        path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
    JsonObject r =
        switch (p) {
          case "/redfish" -> new JsonObject().put("v1", "/redfish/v1/");
          case "/redfish/v1" -> root();
          case "/redfish/v1/SessionService" -> sessionService();
          case "/redfish/v1/Systems" -> collection(p, "ComputerSystemCollection", List.of(SYSTEM));
          case SYSTEM -> system();
          case "/redfish/v1/Chassis" -> collection(p, "ChassisCollection", List.of(CHASSIS));
          case CHASSIS -> chassis();
          case CHASSIS + "/Thermal" -> thermal(nowMillis);
          case CHASSIS + "/Power" -> powerResource(nowMillis);
          case "/redfish/v1/Managers" ->
              collection(p, "ManagerCollection", List.of("/redfish/v1/Managers/1"));
          case "/redfish/v1/Managers/1" -> manager();
          case SYSTEM + "/LogServices" -> collection(p, "LogServiceCollection", List.of(SEL));
          case SEL -> logService();
          case SEL + "/Entries" -> entries();
          case SYSTEM + "/Processors" -> collection(p, "ProcessorCollection", processorIds());
          case SYSTEM + "/Memory" -> collection(p, "MemoryCollection", dimmIds());
          case SYSTEM + "/EthernetInterfaces" ->
              collection(
                  p,
                  "EthernetInterfaceCollection",
                  List.of(SYSTEM + "/EthernetInterfaces/1", SYSTEM + "/EthernetInterfaces/2"));
          case "/redfish/v1/UpdateService" -> updateService();
          case "/redfish/v1/UpdateService/FirmwareInventory" ->
              collection(
                  p,
                  "SoftwareInventoryCollection",
                  List.of(p + "/BMC", p + "/BIOS", p + "/GPU-VBIOS"));
          default -> member(p);
        };
    return Optional.ofNullable(r);
  }

  private JsonObject member(String p) {
    String tail = p.substring(p.lastIndexOf('/') + 1);
    if (p.startsWith(SEL + "/Entries/")) {
      return log.stream().filter(e -> e.getString("Id").equals(tail)).findFirst().orElse(null);
    }
    if (p.startsWith(SYSTEM + "/Processors/")) {
      return processorIds().contains(p) ? processor(tail) : null;
    }
    if (p.startsWith(SYSTEM + "/Memory/")) {
      return dimmIds().contains(p) ? dimm(tail) : null;
    }
    if (p.equals(SYSTEM + "/EthernetInterfaces/1") || p.equals(SYSTEM + "/EthernetInterfaces/2")) {
      return nic(tail);
    }
    if (p.startsWith("/redfish/v1/UpdateService/FirmwareInventory/")) {
      return switch (tail) {
        case "BMC" -> firmware(p, "BMC", "2.14.3");
        case "BIOS" -> firmware(p, "BIOS", "1.9.2");
        case "GPU-VBIOS" -> firmware(p, "GPU VBIOS", "96.00.89.00.01");
        default -> null;
      };
    }
    return null;
  }

  private JsonObject root() {
    return resource(
            "/redfish/v1", "#ServiceRoot.v1_15_0.ServiceRoot", "RootService", "Root Service")
        .put("RedfishVersion", "1.17.0")
        .put("UUID", uuid)
        .put("Vendor", "Bulwark Simulator")
        .put("Product", "Simulated GPU server BMC")
        .put("Systems", link("/redfish/v1/Systems"))
        .put("Chassis", link("/redfish/v1/Chassis"))
        .put("Managers", link("/redfish/v1/Managers"))
        .put("SessionService", link("/redfish/v1/SessionService"))
        .put("UpdateService", link("/redfish/v1/UpdateService"))
        .put(
            "Links", new JsonObject().put("Sessions", link("/redfish/v1/SessionService/Sessions")));
  }

  private static JsonObject sessionService() {
    return resource(
            "/redfish/v1/SessionService",
            "#SessionService.v1_1_9.SessionService",
            "SessionService",
            "Session Service")
        .put("ServiceEnabled", true)
        .put("SessionTimeout", SimulatedBmcs.SESSION_TIMEOUT_SECONDS)
        .put("Sessions", link("/redfish/v1/SessionService/Sessions"));
  }

  private JsonObject system() {
    JsonObject boot =
        new JsonObject()
            .put("BootSourceOverrideEnabled", bootEnabled)
            .put("BootSourceOverrideTarget", bootTarget)
            .put("BootSourceOverrideMode", "UEFI")
            .put("BootSourceOverrideTarget@Redfish.AllowableValues", new JsonArray(BOOT_TARGETS));
    return resource(SYSTEM, "#ComputerSystem.v1_20_0.ComputerSystem", "1", "System")
        .put("@odata.etag", etag())
        .put("SystemType", "Physical")
        .put("Manufacturer", "Bulwark Simulator")
        .put("Model", "SIM-HGX-" + gpus + "GPU")
        .put("SerialNumber", serial)
        .put("UUID", uuid)
        .put("HostName", node)
        .put("PowerState", power)
        .put("Status", status("On".equals(power) ? "Enabled" : "StandbyOffline", health()))
        .put("Boot", boot)
        .put("Processors", link(SYSTEM + "/Processors"))
        .put("Memory", link(SYSTEM + "/Memory"))
        .put("EthernetInterfaces", link(SYSTEM + "/EthernetInterfaces"))
        .put("LogServices", link(SYSTEM + "/LogServices"))
        .put(
            "Links",
            new JsonObject()
                .put("Chassis", new JsonArray().add(link(CHASSIS)))
                .put("ManagedBy", new JsonArray().add(link("/redfish/v1/Managers/1"))))
        .put(
            "Actions",
            new JsonObject()
                .put(
                    "#ComputerSystem.Reset",
                    new JsonObject()
                        .put("target", SYSTEM + "/Actions/ComputerSystem.Reset")
                        .put("ResetType@Redfish.AllowableValues", new JsonArray(RESET_TYPES))));
  }

  private String health() {
    if (faults.stream().anyMatch(f -> f.logged() || f == BmcFault.VOLTAGE_CRITICAL)) {
      return "Critical";
    }
    return faults.isEmpty() ? "OK" : "Warning";
  }

  private JsonObject chassis() {
    return resource(CHASSIS, "#Chassis.v1_23_0.Chassis", "1", "GPU server chassis")
        .put("ChassisType", "RackMount")
        .put("Manufacturer", "Bulwark Simulator")
        .put("SerialNumber", serial + "-CH")
        .put("PowerState", power)
        .put("Status", status("Enabled", health()))
        .put("Thermal", link(CHASSIS + "/Thermal"))
        .put("Power", link(CHASSIS + "/Power"))
        .put("Links", new JsonObject().put("ComputerSystems", new JsonArray().add(link(SYSTEM))));
  }

  private JsonObject thermal(long nowMillis) {
    boolean on = "On".equals(power);
    JsonArray temps = new JsonArray();
    double inlet = faults.contains(BmcFault.INLET_HOT) ? 38.5 : 22 + wave(nowMillis, 1, 1.5);
    temps.add(temperature(0, "Inlet Temp", inlet, 42));
    temps.add(temperature(1, "Exhaust Temp", inlet + (on ? 17 : 2) + wave(nowMillis, 2, 1), 75));
    for (int c = 0; c < 2; c++) {
      temps.add(
          temperature(
              2 + c, "CPU" + (c + 1) + " Temp", on ? 56 + wave(nowMillis, 3 + c, 4) : inlet, 95));
    }
    for (int g = 0; g < gpus; g++) {
      temps.add(
          temperature(
              4 + g, "GPU" + (g + 1) + " Temp", on ? 62 + wave(nowMillis, 10 + g, 6) : inlet, 87));
    }
    JsonArray fans = new JsonArray();
    for (int f = 0; f < FANS; f++) {
      boolean failed = f == 2 && faults.contains(BmcFault.FAN_FAILED);
      JsonObject fan =
          new JsonObject()
              .put("@odata.id", CHASSIS + "/Thermal#/Fans/" + f)
              .put("MemberId", Integer.toString(f))
              .put("Name", "Fan " + (f + 1))
              .put("PhysicalContext", "Backplane")
              .put("ReadingUnits", "RPM")
              .put("LowerThresholdCritical", FAN_LOWER_CRITICAL)
              .put("LowerThresholdNonCritical", 2_500);
      if (!on) {
        fan.putNull("Reading").put("Status", status("StandbyOffline", "OK"));
      } else if (failed) {
        fan.put("Reading", 0).put("Status", status("Enabled", "Critical"));
      } else {
        fan.put("Reading", Math.round(9_600 + wave(nowMillis, 30 + f, 250)))
            .put("Status", status("Enabled", "OK"));
      }
      fans.add(fan);
    }
    return resource(CHASSIS + "/Thermal", "#Thermal.v1_7_1.Thermal", "Thermal", "Thermal")
        .put("Temperatures", temps)
        .put("Fans", fans);
  }

  private JsonObject temperature(int member, String name, double celsius, double upperCritical) {
    return new JsonObject()
        .put("@odata.id", CHASSIS + "/Thermal#/Temperatures/" + member)
        .put("MemberId", Integer.toString(member))
        .put("Name", name)
        .put("ReadingCelsius", round(celsius))
        .put("UpperThresholdCritical", upperCritical)
        .put("LowerThresholdCritical", 3)
        .put("Status", status("Enabled", celsius > upperCritical ? "Critical" : "OK"));
  }

  private JsonObject powerResource(long nowMillis) {
    boolean on = "On".equals(power);
    double consumed = on ? 650 * gpus + 1_400 + wave(nowMillis, 50, 300) : 45;
    JsonArray supplies = new JsonArray();
    boolean psuFailed = faults.contains(BmcFault.PSU_FAILED);
    int delivering = psuFailed ? SUPPLIES - 1 : SUPPLIES;
    for (int s = 0; s < SUPPLIES; s++) {
      boolean failed = psuFailed && s == 1;
      supplies.add(
          new JsonObject()
              .put("@odata.id", CHASSIS + "/Power#/PowerSupplies/" + s)
              .put("MemberId", Integer.toString(s))
              .put("Name", "PSU" + (s + 1))
              .put("PowerSupplyType", "AC")
              .put("PowerCapacityWatts", 3_300)
              .put("LastPowerOutputWatts", failed ? 0 : Math.round(consumed / delivering))
              .put(
                  "Status",
                  status(failed ? "UnavailableOffline" : "Enabled", failed ? "Critical" : "OK")));
    }
    double p12 =
        faults.contains(BmcFault.VOLTAGE_CRITICAL) ? 10.2 : 12.05 + wave(nowMillis, 60, 0.04);
    JsonArray voltages =
        new JsonArray()
            .add(voltage(0, "P12V", p12, 11.4, 12.6))
            .add(voltage(1, "P3V3", 3.31 + wave(nowMillis, 61, 0.01), 3.1, 3.5));
    return resource(CHASSIS + "/Power", "#Power.v1_7_1.Power", "Power", "Power")
        .put(
            "PowerControl",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("@odata.id", CHASSIS + "/Power#/PowerControl/0")
                        .put("MemberId", "0")
                        .put("Name", "System Power Control")
                        .put("PowerConsumedWatts", Math.round(consumed))
                        .put("PowerCapacityWatts", SUPPLIES * 3_300)
                        .put("Status", status("Enabled", "OK"))))
        .put("Voltages", voltages)
        .put("PowerSupplies", supplies)
        .put(
            "Redundancy",
            new JsonArray()
                .add(
                    new JsonObject()
                        .put("@odata.id", CHASSIS + "/Power#/Redundancy/0")
                        .put("MemberId", "0")
                        .put("Name", "PSU Redundancy")
                        .put("Mode", "N+m")
                        .put("MinNumNeeded", 2)
                        .put("Status", status("Enabled", psuFailed ? "Warning" : "OK"))));
  }

  private static JsonObject voltage(int member, String name, double volts, double lo, double hi) {
    return new JsonObject()
        .put("@odata.id", CHASSIS + "/Power#/Voltages/" + member)
        .put("MemberId", Integer.toString(member))
        .put("Name", name)
        .put("ReadingVolts", Math.round(volts * 100) / 100.0)
        .put("LowerThresholdCritical", lo)
        .put("UpperThresholdCritical", hi)
        .put("Status", status("Enabled", volts < lo || volts > hi ? "Critical" : "OK"));
  }

  private JsonObject manager() {
    return resource("/redfish/v1/Managers/1", "#Manager.v1_19_0.Manager", "1", "BMC")
        .put("ManagerType", "BMC")
        .put("FirmwareVersion", "2.14.3")
        .put("Status", status("Enabled", "OK"));
  }

  private static JsonObject logService() {
    return resource(SEL, "#LogService.v1_5_0.LogService", "SEL", "System Event Log")
        .put("LogEntryType", "SEL")
        .put("MaxNumberOfRecords", SimulatedBmcs.MAX_LOG_ENTRIES)
        .put("OverWritePolicy", "WrapsWhenFull")
        .put("Entries", link(SEL + "/Entries"))
        .put(
            "Actions",
            new JsonObject()
                .put(
                    "#LogService.ClearLog",
                    new JsonObject().put("target", SEL + "/Actions/LogService.ClearLog")));
  }

  private JsonObject entries() {
    JsonArray members = new JsonArray();
    for (int i = log.size() - 1; i >= 0; i--) {
      members.add(log.get(i).copy());
    }
    return resource(SEL + "/Entries", "#LogEntryCollection.LogEntryCollection", null, "SEL Entries")
        .put("Members@odata.count", members.size())
        .put("Members", members);
  }

  private void logEntry(
      long atMillis, String severity, String sensorType, String message, String code) {
    String id = Long.toString(++logSeq);
    JsonObject e =
        resource(SEL + "/Entries/" + id, "#LogEntry.v1_15_0.LogEntry", id, "SEL entry " + id)
            .put("EntryType", "SEL")
            .put("Severity", severity)
            .put("Created", Instant.ofEpochMilli(atMillis).toString())
            .put("SensorType", sensorType)
            .put("Message", message);
    if (!code.isEmpty()) {
      e.put("EntryCode", code);
    }
    log.add(e);
    while (log.size() > SimulatedBmcs.MAX_LOG_ENTRIES) {
      log.remove(0);
    }
  }

  private List<String> processorIds() {
    List<String> ids = new ArrayList<>();
    ids.add(SYSTEM + "/Processors/CPU1");
    ids.add(SYSTEM + "/Processors/CPU2");
    for (int g = 0; g < gpus; g++) {
      ids.add(SYSTEM + "/Processors/GPU" + (g + 1));
    }
    return ids;
  }

  private JsonObject processor(String id) {
    boolean gpu = id.startsWith("GPU");
    JsonObject p =
        resource(SYSTEM + "/Processors/" + id, "#Processor.v1_20_0.Processor", id, id)
            .put("ProcessorType", gpu ? "GPU" : "CPU")
            .put("Manufacturer", gpu ? "NVIDIA" : "Intel(R) Corporation")
            .put("Model", gpu ? "NVIDIA H100 80GB HBM3" : "Intel(R) Xeon(R) Platinum 8480C")
            .put("SerialNumber", serial + "-" + id)
            .put("Status", status("Enabled", "OK"));
    if (!gpu) {
      p.put("TotalCores", 56).put("TotalThreads", 112).put("MaxSpeedMHz", 3_800);
    } else {
      p.put("UUID", uuid(seed + id.hashCode()));
    }
    return p;
  }

  private static List<String> dimmIds() {
    List<String> ids = new ArrayList<>();
    for (int d = 0; d < 16; d++) {
      ids.add(SYSTEM + "/Memory/DIMM" + d);
    }
    return ids;
  }

  private JsonObject dimm(String id) {
    return resource(SYSTEM + "/Memory/" + id, "#Memory.v1_19_0.Memory", id, id)
        .put("MemoryDeviceType", "DDR5")
        .put("CapacityMiB", 131_072)
        .put("OperatingSpeedMhz", 4_800)
        .put("Manufacturer", "Samsung")
        .put("SerialNumber", serial + "-" + id)
        .put("DeviceLocator", id)
        .put("Status", status("Enabled", "OK"));
  }

  private JsonObject nic(String id) {
    return resource(
            SYSTEM + "/EthernetInterfaces/" + id,
            "#EthernetInterface.v1_12_0.EthernetInterface",
            id,
            "NIC " + id)
        .put("MACAddress", mac(Integer.parseInt(id)))
        .put("SpeedMbps", 100_000)
        .put("LinkStatus", "LinkUp")
        .put("Status", status("Enabled", "OK"));
  }

  /** Returns the MAC address of the system's NIC {@code n} (1 or 2): 02:b7:xx:xx:xx:0n. */
  String mac(int n) {
    return String.format(
        Locale.ROOT,
        "02:b7:%02x:%02x:%02x:%02x",
        (index >> 16) & 0xff,
        (index >> 8) & 0xff,
        index & 0xff,
        n);
  }

  private static JsonObject updateService() {
    return resource(
            "/redfish/v1/UpdateService",
            "#UpdateService.v1_11_0.UpdateService",
            "UpdateService",
            "Update Service")
        .put("ServiceEnabled", false)
        .put("FirmwareInventory", link("/redfish/v1/UpdateService/FirmwareInventory"));
  }

  private static JsonObject firmware(String path, String name, String version) {
    return resource(
            path,
            "#SoftwareInventory.v1_9_0.SoftwareInventory",
            path.substring(path.lastIndexOf('/') + 1),
            name)
        .put("Version", version)
        .put("Updateable", false)
        .put("Status", status("Enabled", "OK"));
  }

  // ---- helpers ----

  private static JsonObject collection(String path, String type, List<String> members) {
    JsonArray m = new JsonArray();
    members.forEach(id -> m.add(link(id)));
    return resource(path, "#" + type + "." + type, null, type)
        .put("Members@odata.count", m.size())
        .put("Members", m);
  }

  private static JsonObject resource(String path, String type, String id, String name) {
    JsonObject r = new JsonObject().put("@odata.id", path).put("@odata.type", type);
    if (id != null) {
      r.put("Id", id);
    }
    return r.put("Name", name);
  }

  static JsonObject link(String path) {
    return new JsonObject().put("@odata.id", path);
  }

  private static JsonObject status(String state, String health) {
    return new JsonObject().put("State", state).put("Health", health);
  }

  /** A slow wave of amplitude {@code a} with a phase of its own, from the BMC's seed. */
  private double wave(long nowMillis, int channel, double a) {
    double phase = new SplittableRandom(seed + channel).nextDouble() * 2 * Math.PI;
    return a * Math.sin(nowMillis / 90_000.0 + phase);
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }

  private static String uuid(long s) {
    SplittableRandom r = new SplittableRandom(s);
    return new java.util.UUID(
            (r.nextLong() & ~0xF000L) | 0x4000L,
            (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | Long.MIN_VALUE)
        .toString();
  }
}
