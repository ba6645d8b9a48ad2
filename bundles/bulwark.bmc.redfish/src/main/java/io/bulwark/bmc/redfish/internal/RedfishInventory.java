package io.bulwark.bmc.redfish.internal;

import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.bmc.BmcInventory;
import io.bulwark.api.bmc.BmcInventory.Component;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads one system's hardware inventory for {@link RedfishConnection#inventory()}, by following
 * links only: the system's {@code Processors}, {@code Memory}, {@code PCIeDevices} (or its chassis'
 * {@code PCIeDevices}), {@code Storage} drives (or {@code SimpleStorage} devices where there is no
 * Storage), {@code EthernetInterfaces} and {@code NetworkInterfaces}, and the service root's {@code
 * UpdateService} firmware inventory. A collection the BMC does not have adds nothing; a member it
 * cannot give (404, a body that is not JSON) is left out; a failure worth a retry (timeout, busy,
 * unreachable) or refused credentials end the read with that exception. At most {@code maxRequests}
 * requests are sent; past that the components read so far are returned. Absent parts ({@code
 * Status.State} "Absent") are left out. Used once, by one thread; keeps nothing.
 */
final class RedfishInventory {
  private final RedfishClient client;
  private final JsonObject root;
  private final VendorQuirk quirk;
  private final int maxRequests;
  private final List<Component> out = new ArrayList<>();
  private final Set<String> seen = new LinkedHashSet<>();
  private int requests;

  RedfishInventory(RedfishClient client, JsonObject root, VendorQuirk quirk, int maxRequests) {
    this.client = client;
    this.root = root;
    this.quirk = quirk;
    this.maxRequests = maxRequests;
  }

  /** Reads the inventory of the system {@code s} (already read). */
  BmcInventory read(JsonObject s) throws BmcException {
    for (JsonObject p : members(RedfishConnection.link(s, "Processors"))) {
      processor(p);
    }
    for (JsonObject m : members(RedfishConnection.link(s, "Memory"))) {
      memory(m);
    }
    pcie(s);
    drives(s);
    for (JsonObject e : members(RedfishConnection.link(s, "EthernetInterfaces"))) {
      ethernet(e);
    }
    for (JsonObject n : members(RedfishConnection.link(s, "NetworkInterfaces"))) {
      networkInterface(n);
    }
    firmware();
    return new BmcInventory(out);
  }

  // ---- parts ----

  private void processor(JsonObject p) {
    String type = p.getString("ProcessorType", "");
    // CPUs (and processors of no stated type) are CPUs, GPUs and accelerators GPUs; FPGAs, DSPs
    // and the like are add-in devices.
    BmcInventory.Kind kind =
        switch (type) {
          case "", "CPU", "Core", "Thread" -> BmcInventory.Kind.CPU;
          case "GPU", "Accelerator" -> BmcInventory.Kind.GPU;
          default -> BmcInventory.Kind.PCIE;
        };
    if (absent(p)) {
      return;
    }
    Map<String, String> d = new LinkedHashMap<>();
    put(d, "cores", p.getValue("TotalCores"));
    put(d, "threads", p.getValue("TotalThreads"));
    put(d, "maxSpeedMHz", p.getValue("MaxSpeedMHz"));
    put(d, "health", health(p));
    put(d, "type", type);
    if (kind != BmcInventory.Kind.CPU) {
      put(d, "uuid", p.getValue("UUID"));
    }
    add(kind, p, p.getString("Model"), d);
  }

  private void memory(JsonObject m) {
    if (absent(m)) {
      return;
    }
    Map<String, String> d = new LinkedHashMap<>();
    put(d, "capacityMiB", m.getValue("CapacityMiB"));
    put(d, "type", m.getValue("MemoryDeviceType"));
    put(d, "speedMHz", m.getValue("OperatingSpeedMhz"));
    put(d, "location", m.getValue("DeviceLocator"));
    put(d, "health", health(m));
    add(BmcInventory.Kind.MEMORY, m, m.getString("Model", m.getString("PartNumber")), d);
  }

  private void pcie(JsonObject s) throws BmcException {
    Set<String> paths = new LinkedHashSet<>(RedfishConnection.links(array(s, "PCIeDevices")));
    if (paths.isEmpty()) {
      for (String chassis :
          RedfishConnection.links(
              s.getJsonObject("Links", new JsonObject()).getJsonArray("Chassis"))) {
        JsonObject c = fetch(chassis);
        if (c != null) {
          paths.addAll(memberPaths(RedfishConnection.link(c, "PCIeDevices")));
        }
      }
    }
    for (String path : paths) {
      JsonObject p = fetch(path);
      if (p == null || absent(p)) {
        continue;
      }
      Map<String, String> d = new LinkedHashMap<>();
      put(d, "deviceType", p.getValue("DeviceType"));
      put(d, "firmwareVersion", p.getValue("FirmwareVersion"));
      put(d, "health", health(p));
      add(BmcInventory.Kind.PCIE, p, p.getString("Model"), d);
    }
  }

  private void drives(JsonObject s) throws BmcException {
    String storage = RedfishConnection.link(s, "Storage");
    if (storage == null) {
      simpleStorage(s);
      return;
    }
    Set<String> drives = new LinkedHashSet<>();
    for (JsonObject st : members(storage)) {
      drives.addAll(RedfishConnection.links(array(st, "Drives")));
    }
    for (String path : drives) {
      JsonObject dr = fetch(path);
      if (dr == null || absent(dr)) {
        continue;
      }
      if (!dr.containsKey("Id")) {
        dr.put("Id", last(path));
      }
      Map<String, String> d = new LinkedHashMap<>();
      put(d, "capacityBytes", dr.getValue("CapacityBytes"));
      put(d, "mediaType", dr.getValue("MediaType"));
      put(d, "protocol", dr.getValue("Protocol"));
      put(d, "health", health(dr));
      add(BmcInventory.Kind.DRIVE, dr, dr.getString("Model"), d);
    }
  }

  /** The deprecated SimpleStorage: its devices are inline, named but without ids. */
  private void simpleStorage(JsonObject s) throws BmcException {
    for (JsonObject st : members(RedfishConnection.link(s, "SimpleStorage"))) {
      for (Object o : array(st, "Devices")) {
        if (!(o instanceof JsonObject dev) || absent(dev) || dev.getString("Name") == null) {
          continue;
        }
        Map<String, String> d = new LinkedHashMap<>();
        put(d, "capacityBytes", dev.getValue("CapacityBytes"));
        put(d, "health", health(dev));
        out.add(
            new Component(
                BmcInventory.Kind.DRIVE,
                dev.getString("Name"),
                dev.getString("Name"),
                dev.getString("Manufacturer"),
                dev.getString("Model"),
                dev.getString("SerialNumber"),
                d));
      }
    }
  }

  private void ethernet(JsonObject e) {
    if (absent(e)) {
      return;
    }
    Map<String, String> d = new LinkedHashMap<>();
    String mac = e.getString("MACAddress", e.getString("PermanentMACAddress"));
    put(d, "mac", mac == null ? null : mac.toLowerCase(Locale.ROOT));
    put(d, "speedMbps", e.getValue("SpeedMbps"));
    put(d, "linkStatus", e.getValue("LinkStatus"));
    put(d, "health", health(e));
    add(BmcInventory.Kind.NIC, e, null, d);
  }

  /** A NetworkInterface is described by the chassis' NetworkAdapter it links to. */
  private void networkInterface(JsonObject n) throws BmcException {
    String adapterPath =
        RedfishConnection.link(n.getJsonObject("Links", new JsonObject()), "NetworkAdapter");
    JsonObject a = adapterPath == null ? null : fetch(adapterPath);
    if (a == null || absent(a) || absent(n)) {
      return;
    }
    Map<String, String> d = new LinkedHashMap<>();
    JsonArray controllers = array(a, "Controllers");
    if (!controllers.isEmpty() && controllers.getValue(0) instanceof JsonObject c) {
      put(d, "firmwareVersion", c.getValue("FirmwarePackageVersion"));
    }
    put(d, "health", health(a));
    out.add(
        new Component(
            BmcInventory.Kind.NIC,
            id(n),
            a.getString("Name", n.getString("Name")),
            a.getString("Manufacturer"),
            a.getString("Model"),
            a.getString("SerialNumber"),
            d));
  }

  private void firmware() throws BmcException {
    String update = RedfishConnection.link(root, "UpdateService");
    JsonObject service = update == null ? null : fetch(update);
    if (service == null) {
      return;
    }
    for (JsonObject f : members(RedfishConnection.link(service, "FirmwareInventory"))) {
      if (quirk.skipsFirmware(id(f))) {
        continue;
      }
      Map<String, String> d = new LinkedHashMap<>();
      put(d, "version", f.getValue("Version"));
      put(d, "updateable", f.getValue("Updateable"));
      put(d, "health", health(f));
      add(BmcInventory.Kind.FIRMWARE, f, null, d);
    }
  }

  // ---- reading ----

  /** The members of the collection at {@code path} (none if null or unreadable), each read. */
  private List<JsonObject> members(String path) throws BmcException {
    List<JsonObject> read = new ArrayList<>();
    if (path == null) {
      return read;
    }
    String next = path;
    while (next != null) {
      JsonObject page = fetch(next);
      if (page == null) {
        break;
      }
      for (Object m : array(page, "Members")) {
        if (!(m instanceof JsonObject member)) {
          continue;
        }
        String id = member.getString("@odata.id");
        boolean inline = member.size() > 1 && member.containsKey("Id");
        JsonObject r = inline || id == null ? member : fetch(id);
        if (r != null) {
          if (!r.containsKey("Id") && id != null) {
            r.put("Id", last(id));
          }
          read.add(r);
        }
      }
      next = page.getString("Members@odata.nextLink");
    }
    return read;
  }

  private List<String> memberPaths(String path) throws BmcException {
    JsonObject c = path == null ? null : fetch(path);
    return c == null ? List.of() : RedfishConnection.links(array(c, "Members"));
  }

  /**
   * GETs {@code path}; null if the BMC cannot give it, it was read already (a loop in the tree), or
   * the request budget is spent; the exception if retrying later or other credentials may help.
   */
  private JsonObject fetch(String path) throws BmcException {
    if (requests >= maxRequests || !seen.add(path)) {
      return null;
    }
    requests++;
    try {
      return client.get(path).body();
    } catch (BmcException e) {
      if (e.retryable() || e.kind() == Kind.CREDENTIALS || e.kind() == Kind.CERTIFICATE) {
        throw e;
      }
      return null;
    }
  }

  /** Returns how many requests the read sent. */
  int requests() {
    return requests;
  }

  // ---- JSON ----

  private void add(BmcInventory.Kind kind, JsonObject r, String model, Map<String, String> d) {
    out.add(
        new Component(
            kind,
            id(r),
            r.getString("Name"),
            r.getString("Manufacturer"),
            model,
            r.getString("SerialNumber"),
            d));
  }

  private static String id(JsonObject r) {
    String id = r.getString("Id");
    return id != null ? id : last(r.getString("@odata.id", ""));
  }

  private static String last(String path) {
    String p = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    return p.substring(p.lastIndexOf('/') + 1);
  }

  private static boolean absent(JsonObject r) {
    return "Absent".equals(r.getJsonObject("Status", new JsonObject()).getString("State"));
  }

  private static String health(JsonObject r) {
    return r.getJsonObject("Status", new JsonObject()).getString("Health");
  }

  private static JsonArray array(JsonObject o, String field) {
    return o.getValue(field) instanceof JsonArray a ? a : new JsonArray();
  }

  /** Puts {@code value} as the BMC gives it (numbers without an exponent), unless it is null. */
  private static void put(Map<String, String> d, String key, Object value) {
    if (value == null) {
      return;
    }
    String text;
    if (value instanceof Double || value instanceof Float) {
      double n = ((Number) value).doubleValue();
      text =
          n == Math.rint(n) && !Double.isInfinite(n)
              ? BigDecimal.valueOf(n).toBigInteger().toString()
              : value.toString();
    } else if (value instanceof BigDecimal n) {
      text = n.toPlainString();
    } else if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      text = value.toString();
    } else {
      text = null;
    }
    if (text != null && !text.isEmpty()) {
      d.put(key, text);
    }
  }
}
