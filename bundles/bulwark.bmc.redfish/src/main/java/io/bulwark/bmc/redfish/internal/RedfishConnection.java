package io.bulwark.bmc.redfish.internal;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.bmc.BmcIdentity;
import io.bulwark.api.bmc.BmcInventory;
import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.BootDevice;
import io.bulwark.api.bmc.PowerAction;
import io.bulwark.api.machine.PowerState;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A Redfish session with one BMC, on one system of its Systems collection (the one the endpoint
 * names, else the first): power through {@code #ComputerSystem.Reset} with only the reset types the
 * BMC lists, the next boot through the system's {@code Boot} override (PATCH with the ETag read
 * just before, as {@code If-Match}), sensors from the system's chassis, the chassis containing them
 * and, where the endpoint names no system, every chassis of the BMC ({@link RedfishSensors}), the
 * event log from the system's LogServices, and the hardware inventory ({@link RedfishInventory}).
 * Resources are found by following links from the service root, never by assuming paths. Vendor
 * differences come from {@link VendorQuirk#TABLE} only: an OEM power cycle where the BMC lists no
 * {@code PowerCycle}, {@code BootSourceOverrideMode} in a boot override, and firmware entries that
 * do not run.
 */
final class RedfishConnection implements BmcConnection {
  private static final Duration POLL = Duration.ofMillis(500);

  /** The most requests one inventory read sends. */
  static final int MAX_INVENTORY_REQUESTS = 256;

  private final RedfishClient client;
  private final String sessionLocation;
  private final String system;
  private final boolean systemNamed;
  private final JsonObject root;
  private final Duration softOffTimeout;
  private final Duration powerTimeout;

  RedfishConnection(
      RedfishClient client,
      String sessionLocation,
      String system,
      boolean systemNamed,
      JsonObject root,
      Duration softOffTimeout,
      Duration powerTimeout) {
    this.client = client;
    this.sessionLocation = sessionLocation;
    this.system = system;
    this.systemNamed = systemNamed;
    this.root = root.copy();
    this.softOffTimeout = softOffTimeout;
    this.powerTimeout = powerTimeout;
  }

  String systemPath() {
    return system;
  }

  @Override
  public BmcIdentity identity() throws BmcException {
    JsonObject s = client.get(system).body();
    return new BmcIdentity(
        s.getString("Manufacturer"),
        s.getString("Model"),
        s.getString("SerialNumber"),
        s.getString("UUID"),
        s.getString("HostName"));
  }

  @Override
  public PowerState power() throws BmcException {
    return powerOf(client.get(system).body());
  }

  static PowerState powerOf(JsonObject system) {
    return switch (system.getString("PowerState", "")) {
      case "On" -> PowerState.ON;
      case "Off" -> PowerState.OFF;
      case "PoweringOn" -> PowerState.POWERING_ON;
      case "PoweringOff" -> PowerState.POWERING_OFF;
      default -> PowerState.UNKNOWN;
    };
  }

  @Override
  public void power(PowerAction action) throws BmcException {
    JsonObject s = client.get(system).body();
    JsonObject reset =
        s.getJsonObject("Actions", new JsonObject()).getJsonObject("#ComputerSystem.Reset");
    if (reset == null || reset.getString("target") == null) {
      throw new BmcException(
          Kind.UNSUPPORTED,
          "BMC " + client.endpoint() + " offers no #ComputerSystem.Reset action on " + system,
          null);
    }
    String target = reset.getString("target");
    JsonArray allowed = reset.getJsonArray("ResetType@Redfish.AllowableValues");
    switch (action) {
      case ON -> reset(target, pick(allowed, action, "On", "ForceOn"));
      case OFF -> reset(target, pick(allowed, action, "ForceOff"));
      case SOFT_OFF -> {
        reset(target, pick(allowed, action, "GracefulShutdown"));
        if (!waitFor(PowerState.OFF, softOffTimeout)) {
          // The operating system did not shut down in time: off at once, as MAAS and Ironic do.
          reset(target, pick(allowed, action, "ForceOff"));
        }
      }
      case CYCLE -> {
        if (offers(allowed, "PowerCycle")) {
          reset(target, "PowerCycle");
        } else if (powerOf(s) != PowerState.OFF && oemCycle(s)) {
          return;
        } else {
          if (powerOf(s) != PowerState.OFF) {
            reset(target, pick(allowed, action, "ForceOff"));
            if (!waitFor(PowerState.OFF, powerTimeout)) {
              throw new BmcException(
                  Kind.TIMEOUT,
                  "BMC "
                      + client.endpoint()
                      + " accepted ForceOff but the system was still not off after "
                      + powerTimeout.toSeconds()
                      + " s; it was not powered on again",
                  null);
            }
          }
          reset(target, pick(allowed, action, "On", "ForceOn"));
        }
      }
      default -> throw new IllegalArgumentException(action.toString());
    }
  }

  /**
   * Cycles through the vendor's OEM action where the quirk table names one and the system offers
   * it; returns false (nothing done) where it does not, or where the BMC refuses the action as
   * unsupported, so that the caller cycles as off then on.
   */
  private boolean oemCycle(JsonObject s) throws BmcException {
    VendorQuirk quirk = VendorQuirk.of(root, s);
    if (quirk.cycleAction().isEmpty()) {
      return false;
    }
    Object action = s;
    for (String key : quirk.cycleAction().split("/")) {
      action = action instanceof JsonObject o ? o.getValue(key) : null;
    }
    if (!(action instanceof JsonObject a) || a.getString("target") == null) {
      return false;
    }
    JsonArray allowed = a.getJsonArray("ResetType@Redfish.AllowableValues");
    if (allowed != null && !allowed.contains(quirk.cycleResetType())) {
      return false;
    }
    try {
      client.post(a.getString("target"), new JsonObject().put("ResetType", quirk.cycleResetType()));
      return true;
    } catch (BmcException e) {
      if (e.kind() == Kind.UNSUPPORTED) {
        return false;
      }
      throw e;
    }
  }

  private static boolean offers(JsonArray allowed, String type) {
    return allowed == null || allowed.contains(type);
  }

  private String pick(JsonArray allowed, PowerAction action, String... preferred)
      throws BmcException {
    for (String p : preferred) {
      if (allowed == null || allowed.contains(p)) {
        return p;
      }
    }
    throw new BmcException(
        Kind.UNSUPPORTED,
        "BMC "
            + client.endpoint()
            + " lists no reset type for "
            + action
            + " (it offers "
            + allowed.encode()
            + "; wanted one of "
            + String.join(", ", preferred)
            + ")",
        null);
  }

  private void reset(String target, String type) throws BmcException {
    client.post(target, new JsonObject().put("ResetType", type));
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

  @Override
  public void setNextBoot(BootDevice device, boolean once) throws BmcException {
    RedfishClient.Answer current = client.get(system);
    JsonObject boot = current.body().getJsonObject("Boot");
    if (boot == null) {
      throw new BmcException(
          Kind.UNSUPPORTED,
          "BMC " + client.endpoint() + " has no Boot override on " + system,
          null);
    }
    String target =
        switch (device) {
          case PXE -> "Pxe";
          case HTTP -> "UefiHttp";
          case DISK -> "Hdd";
          case BIOS_SETUP -> "BiosSetup";
          case NONE -> "None";
        };
    JsonArray allowed = boot.getJsonArray("BootSourceOverrideTarget@Redfish.AllowableValues");
    if (allowed != null && !allowed.contains(target)) {
      throw new BmcException(
          Kind.UNSUPPORTED,
          "BMC "
              + client.endpoint()
              + " cannot boot from "
              + target
              + " next (it offers "
              + allowed.encode()
              + ")",
          null);
    }
    JsonObject change =
        new JsonObject()
            .put("BootSourceOverrideTarget", target)
            .put(
                "BootSourceOverrideEnabled",
                device == BootDevice.NONE ? "Disabled" : once ? "Once" : "Continuous");
    if (VendorQuirk.of(root, current.body()).bootNeedsMode()) {
      String mode = boot.getString("BootSourceOverrideMode");
      change.put("BootSourceOverrideMode", mode == null || mode.isEmpty() ? "UEFI" : mode);
    }
    String etag =
        current.etag().isEmpty() ? current.body().getString("@odata.etag", "") : current.etag();
    client.patch(system, new JsonObject().put("Boot", change), etag);
  }

  @Override
  public List<BmcSensor> sensors() throws BmcException {
    String collection = systemNamed ? null : link(root, "Chassis");
    return new RedfishSensors(client).read(client.get(system).body(), collection);
  }

  @Override
  public List<BmcLogEntry> eventLog(int max) throws BmcException {
    List<BmcLogEntry> entries = new ArrayList<>();
    JsonObject s = client.get(system).body();
    String services = link(s, "LogServices");
    if (services == null) {
      return entries;
    }
    for (String service : links(client.get(services).body().getJsonArray("Members"))) {
      String next = link(client.get(service).body(), "Entries");
      int pages = 0;
      while (next != null && entries.size() < max && pages++ < 50) {
        JsonObject page = client.get(next).body();
        for (Object member : page.getJsonArray("Members", new JsonArray())) {
          if (!(member instanceof JsonObject m)) {
            continue;
          }
          JsonObject e =
              m.containsKey("Message") || m.getString("@odata.id") == null
                  ? m
                  : client.get(m.getString("@odata.id")).body();
          entries.add(
              new BmcLogEntry(
                  e.getString("Id", ""),
                  instant(e.getString("Created")),
                  e.getString("Severity", ""),
                  e.getString("Message", ""),
                  e.getString("SensorType", "")));
        }
        next = page.getString("Members@odata.nextLink");
      }
    }
    entries.sort(
        (a, b) ->
            b.created() == null || a.created() == null ? 0 : b.created().compareTo(a.created()));
    return entries.size() > max ? List.copyOf(entries.subList(0, max)) : entries;
  }

  @Override
  public BmcInventory inventory() throws BmcException {
    return inventory(MAX_INVENTORY_REQUESTS);
  }

  /** Reads the inventory with at most {@code maxRequests} requests after the system's. */
  BmcInventory inventory(int maxRequests) throws BmcException {
    return inventory(client.get(system).body(), maxRequests);
  }

  /** Reads the inventory of the system {@code s} as read just before. */
  BmcInventory inventory(JsonObject s, int maxRequests) throws BmcException {
    return new RedfishInventory(client, root, VendorQuirk.of(root, s), maxRequests).read(s);
  }

  @Override
  public void close() {
    if (!sessionLocation.isEmpty()) {
      try {
        client.raw("DELETE", sessionLocation, null);
      } catch (BmcException e) {
        // The session expires on the BMC by itself.
      }
    }
  }

  // ---- JSON helpers ----

  static String link(JsonObject o, String field) {
    Object v = o.getValue(field);
    return v instanceof JsonObject l ? l.getString("@odata.id") : null;
  }

  static List<String> links(JsonArray a) {
    List<String> out = new ArrayList<>();
    for (JsonObject o : objects(a)) {
      if (o.getString("@odata.id") != null) {
        out.add(o.getString("@odata.id"));
      }
    }
    return out;
  }

  static List<JsonObject> objects(JsonArray a) {
    List<JsonObject> out = new ArrayList<>();
    if (a != null) {
      for (Object o : a) {
        if (o instanceof JsonObject j) {
          out.add(j);
        }
      }
    }
    return out;
  }

  private static Instant instant(String text) {
    if (text == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
