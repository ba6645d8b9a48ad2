package io.bulwark.bmc.redfish.internal;

import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcInventory;
import io.bulwark.api.bmc.BmcInventory.Component;
import io.bulwark.api.bmc.BmcInventory.Kind;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a system's hardware from its Redfish resources by following links only (DSP0268): the
 * system's {@code Processors} (CPUs; GPUs and accelerators), {@code Memory} (absent slots left
 * out), {@code PCIeDevices} (the system's links, else the chassis' collection), {@code Storage}
 * with its {@code Drives}, {@code EthernetInterfaces} with their MACs, and the service root's
 * {@code UpdateService} firmware inventory. A collection the BMC does not have yields nothing; a
 * member that cannot be read (404, malformed) is left out; a BMC that stops answering fails the
 * whole read. At most {@link #MAX_REQUESTS} requests, so a huge tree cannot run forever.
 */
final class RedfishInventory {
  static final int MAX_REQUESTS = 256;

  private final RedfishClient client;
  private final Set<String> seen = new LinkedHashSet<>();
  private int requests;

  RedfishInventory(RedfishClient client) {
    this.client = client;
  }

  BmcInventory read(String systemPath) throws BmcException {
    List<Component> parts = new ArrayList<>();
    JsonObject system = get(systemPath);
    if (system == null) {
      throw new BmcException(
          BmcException.Kind.UNSUPPORTED,
          "BMC " + client.endpoint() + " did not answer its system " + systemPath,
          null);
    }
    for (JsonObject p : members(RedfishConnection.link(system, "Processors"))) {
      String type = p.getString("ProcessorType", "");
      // GPUs are GPUs, CPUs (and processors of no stated type) CPUs; FPGAs, DSPs and other
      // accelerators are add-in devices.
      Kind kind =
          switch (type) {
            case "GPU" -> Kind.GPU;
            case "", "CPU", "Core", "Thread" -> Kind.CPU;
            default -> Kind.PCIE;
          };
      if (absent(p)) {
        continue;
      }
      Map<String, String> d = details(p);
      put(d, "cores", p.getValue("TotalCores"));
      put(d, "threads", p.getValue("TotalThreads"));
      put(d, "maxSpeedMHz", p.getValue("MaxSpeedMHz"));
      put(d, "uuid", p.getValue("UUID"));
      put(d, "type", type);
      parts.add(component(kind, p, d));
    }
    for (JsonObject m : members(RedfishConnection.link(system, "Memory"))) {
      if (absent(m)) {
        continue;
      }
      Map<String, String> d = details(m);
      put(d, "capacityMiB", m.getValue("CapacityMiB"));
      put(d, "type", m.getValue("MemoryDeviceType"));
      put(d, "speedMHz", m.getValue("OperatingSpeedMhz"));
      put(d, "locator", m.getValue("DeviceLocator"));
      parts.add(component(Kind.MEMORY, m, d));
    }
    List<JsonObject> pcie = new ArrayList<>();
    for (String link : RedfishConnection.links(system.getJsonArray("PCIeDevices"))) {
      JsonObject dev = get(link);
      if (dev != null) {
        pcie.add(dev);
      }
    }
    if (pcie.isEmpty()) {
      for (String chassis :
          RedfishConnection.links(
              system.getJsonObject("Links", new JsonObject()).getJsonArray("Chassis"))) {
        JsonObject c = get(chassis);
        if (c != null) {
          pcie.addAll(members(RedfishConnection.link(c, "PCIeDevices")));
        }
      }
    }
    for (JsonObject dev : pcie) {
      Map<String, String> d = details(dev);
      put(d, "deviceType", dev.getValue("DeviceType"));
      put(d, "firmware", dev.getValue("FirmwareVersion"));
      parts.add(component(Kind.PCIE, dev, d));
    }
    for (JsonObject storage : members(RedfishConnection.link(system, "Storage"))) {
      for (String link : RedfishConnection.links(storage.getJsonArray("Drives"))) {
        JsonObject drive = get(link);
        if (drive == null || absent(drive)) {
          continue;
        }
        Map<String, String> d = details(drive);
        put(d, "capacityBytes", drive.getValue("CapacityBytes"));
        put(d, "mediaType", drive.getValue("MediaType"));
        put(d, "protocol", drive.getValue("Protocol"));
        parts.add(component(Kind.DRIVE, drive, d));
      }
    }
    for (JsonObject nic : members(RedfishConnection.link(system, "EthernetInterfaces"))) {
      Map<String, String> d = details(nic);
      Object mac = nic.getValue("MACAddress", nic.getValue("PermanentMACAddress"));
      if (mac instanceof String s && !s.isBlank()) {
        d.put("mac", s.strip().toLowerCase(Locale.ROOT));
      }
      put(d, "speedMbps", nic.getValue("SpeedMbps"));
      put(d, "linkStatus", nic.getValue("LinkStatus"));
      parts.add(component(Kind.NIC, nic, d));
    }
    JsonObject root = get("/redfish/v1");
    JsonObject update = root == null ? null : get(RedfishConnection.link(root, "UpdateService"));
    if (update != null) {
      for (JsonObject fw : members(RedfishConnection.link(update, "FirmwareInventory"))) {
        Map<String, String> d = details(fw);
        put(d, "version", fw.getValue("Version"));
        put(d, "updateable", fw.getValue("Updateable"));
        parts.add(component(Kind.FIRMWARE, fw, d));
      }
    }
    return new BmcInventory(parts);
  }

  /** The members of the collection at {@code path}, each read (expanded members as they are). */
  private List<JsonObject> members(String path) throws BmcException {
    List<JsonObject> out = new ArrayList<>();
    JsonObject collection = get(path);
    if (collection == null) {
      return out;
    }
    JsonArray members = collection.getJsonArray("Members", new JsonArray());
    for (Object o : members) {
      if (!(o instanceof JsonObject link)) {
        continue;
      }
      String id = link.getString("@odata.id");
      if (link.containsKey("Id") || id == null) {
        out.add(link); // expanded in the collection already
        continue;
      }
      JsonObject member = get(id);
      if (member != null) {
        out.add(member);
      }
    }
    return out;
  }

  /** Reads {@code path}; null if there is no such link, it was read already, or it is missing. */
  private JsonObject get(String path) throws BmcException {
    if (path == null || !seen.add(path) || requests >= MAX_REQUESTS) {
      return null;
    }
    requests++;
    try {
      return client.get(path).body();
    } catch (BmcException e) {
      if (e.retryable() || e.kind() == BmcException.Kind.CREDENTIALS) {
        throw e;
      }
      return null; // missing or malformed: this part is left out
    }
  }

  private static boolean absent(JsonObject o) {
    return "Absent".equals(o.getJsonObject("Status", new JsonObject()).getString("State"));
  }

  private static Map<String, String> details(JsonObject o) {
    Map<String, String> d = new LinkedHashMap<>();
    put(d, "health", o.getJsonObject("Status", new JsonObject()).getValue("Health"));
    return d;
  }

  private static void put(Map<String, String> d, String key, Object value) {
    if (value instanceof String s && !s.isBlank()) {
      d.put(key, s.strip());
    } else if (value instanceof Number || value instanceof Boolean) {
      d.put(key, String.valueOf(value));
    }
  }

  private static Component component(Kind kind, JsonObject o, Map<String, String> details) {
    return new Component(
        kind,
        o.getString("Id", o.getString("@odata.id", "?")),
        o.getString("Name", ""),
        o.getString("Manufacturer", ""),
        o.getString("Model", ""),
        o.getString("SerialNumber", ""),
        details);
  }
}
