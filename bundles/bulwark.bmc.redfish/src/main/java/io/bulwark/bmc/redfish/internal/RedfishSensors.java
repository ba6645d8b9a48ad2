package io.bulwark.bmc.redfish.internal;

import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.bmc.BmcSensor;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads a machine's sensors for {@link RedfishConnection#sensors()}: from the chassis linked from
 * its system, every chassis that contains those ({@code Links.ContainedBy}, up to {@link
 * #MAX_DEPTH} levels: a blade's enclosure holds the fans and power supplies) and, where the
 * endpoint names no system, every member of the BMC's Chassis collection; each chassis once, at
 * most {@link #MAX_CHASSIS}. From each chassis its Thermal and Power resources, or its Sensors
 * collection where it has neither (so that no reading is counted twice). A Sensors member is
 * classified as DSP0268 defines it: by {@code ReadingType}; where it has none, by {@code
 * ReadingUnits} ("Cel", "RPM", "W", "V", "%" of a fan); then by {@code PhysicalContext}. A
 * temperature whose {@code PhysicalContext} is {@code Intake} and whose name does not say so is
 * named "… (Intake)", from either resource alike, so that the inlet temperature detector knows it.
 * Used once, by one thread; keeps nothing.
 */
final class RedfishSensors {
  /** The most chassis one read follows. */
  static final int MAX_CHASSIS = 64;

  /** The most {@code ContainedBy} levels followed up from a chassis. */
  static final int MAX_DEPTH = 8;

  private static final Pattern INLET = Pattern.compile("inlet|intake");
  private static final Pattern FAN = Pattern.compile("(^|[^a-z])fan");

  private final RedfishClient client;
  private final Map<String, JsonObject> chassis = new LinkedHashMap<>();

  RedfishSensors(RedfishClient client) {
    this.client = client;
  }

  /**
   * Reads the sensors of the system {@code s} (already read); {@code collection} is the path of the
   * BMC's Chassis collection whose every member is read too, or null.
   */
  List<BmcSensor> read(JsonObject s, String collection) throws BmcException {
    for (String c :
        RedfishConnection.links(
            s.getJsonObject("Links", new JsonObject()).getJsonArray("Chassis"))) {
      follow(c, 0, true);
    }
    if (collection != null) {
      for (String c :
          RedfishConnection.links(client.get(collection).body().getJsonArray("Members"))) {
        follow(c, 0, false);
      }
    }
    List<BmcSensor> sensors = new ArrayList<>();
    for (JsonObject c : chassis.values()) {
      String thermal = RedfishConnection.link(c, "Thermal");
      String power = RedfishConnection.link(c, "Power");
      if (thermal != null) {
        thermal(client.get(thermal).body(), sensors);
      }
      if (power != null) {
        power(client.get(power).body(), sensors);
      }
      String list = RedfishConnection.link(c, "Sensors");
      if (thermal == null && power == null && list != null) {
        for (String member :
            RedfishConnection.links(client.get(list).body().getJsonArray("Members"))) {
          sensors.add(sensor(client.get(member).body()));
        }
      }
    }
    return sensors;
  }

  /**
   * Reads the chassis at {@code path} unless read already, then the chassis containing it. A
   * chassis the BMC does not have (404) ends the read where the system links it ({@code own}), and
   * is left out where a container or the collection names it.
   */
  private void follow(String path, int depth, boolean own) throws BmcException {
    String key = trimmed(path);
    if (chassis.containsKey(key) || chassis.size() >= MAX_CHASSIS) {
      return;
    }
    JsonObject c;
    try {
      c = client.get(path).body();
    } catch (BmcException e) {
      if (own || e.kind() != Kind.UNSUPPORTED) {
        throw e;
      }
      return;
    }
    chassis.put(key, c);
    if (depth < MAX_DEPTH) {
      JsonObject links = c.getJsonObject("Links", new JsonObject());
      String container = RedfishConnection.link(links, "ContainedBy");
      if (container != null) {
        follow(container, depth + 1, false);
      }
    }
  }

  private static String trimmed(String path) {
    String p = path.strip();
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  private static void thermal(JsonObject t, List<BmcSensor> into) {
    for (JsonObject r : RedfishConnection.objects(t.getJsonArray("Temperatures"))) {
      into.add(
          new BmcSensor(
              name(r.getString("Name", "temperature"), BmcSensor.Kind.TEMPERATURE, r),
              BmcSensor.Kind.TEMPERATURE,
              number(r, "ReadingCelsius"),
              "Cel",
              health(r),
              number(r, "LowerThresholdCritical"),
              number(r, "UpperThresholdCritical")));
    }
    for (JsonObject r : RedfishConnection.objects(t.getJsonArray("Fans"))) {
      into.add(
          new BmcSensor(
              r.getString("Name", r.getString("FanName", "fan")),
              BmcSensor.Kind.FAN,
              number(r, "Reading"),
              r.getString("ReadingUnits", "RPM"),
              health(r),
              number(r, "LowerThresholdCritical"),
              number(r, "UpperThresholdCritical")));
    }
  }

  private static void power(JsonObject p, List<BmcSensor> into) {
    for (JsonObject r : RedfishConnection.objects(p.getJsonArray("PowerControl"))) {
      into.add(
          new BmcSensor(
              r.getString("Name", "power"),
              BmcSensor.Kind.POWER,
              number(r, "PowerConsumedWatts"),
              "W",
              health(r),
              Double.NaN,
              Double.NaN));
    }
    for (JsonObject r : RedfishConnection.objects(p.getJsonArray("Voltages"))) {
      into.add(
          new BmcSensor(
              r.getString("Name", "voltage"),
              BmcSensor.Kind.VOLTAGE,
              number(r, "ReadingVolts"),
              "V",
              health(r),
              number(r, "LowerThresholdCritical"),
              number(r, "UpperThresholdCritical")));
    }
    for (JsonObject r : RedfishConnection.objects(p.getJsonArray("PowerSupplies"))) {
      into.add(
          new BmcSensor(
              r.getString("Name", "power supply"),
              BmcSensor.Kind.POWER_SUPPLY,
              number(r, "LastPowerOutputWatts"),
              "W",
              health(r),
              Double.NaN,
              Double.NaN));
    }
  }

  /** One member of a Sensors collection. */
  static BmcSensor sensor(JsonObject r) {
    BmcSensor.Kind kind = kind(r);
    String units = text(r, "ReadingUnits");
    if (units.isEmpty()) {
      units =
          switch (kind) {
            case TEMPERATURE -> "Cel";
            case POWER -> "W";
            case VOLTAGE -> "V";
            case FAN -> text(r, "ReadingType").equals("Rotational") ? "RPM" : "";
            default -> "";
          };
    }
    JsonObject thresholds = object(r, "Thresholds");
    String named = text(r, "Name");
    return new BmcSensor(
        name(named.isEmpty() ? r.getString("Id", "sensor") : named, kind, r),
        kind,
        number(r, "Reading"),
        units,
        health(r),
        number(object(thresholds, "LowerCritical"), "Reading"),
        number(object(thresholds, "UpperCritical"), "Reading"));
  }

  /** What a Sensors member measures: by ReadingType, else ReadingUnits, else PhysicalContext. */
  static BmcSensor.Kind kind(JsonObject r) {
    return switch (text(r, "ReadingType")) {
      case "Temperature" -> BmcSensor.Kind.TEMPERATURE;
      case "Rotational" -> BmcSensor.Kind.FAN;
      case "Power" -> BmcSensor.Kind.POWER;
      case "Voltage" -> BmcSensor.Kind.VOLTAGE;
      case "Percent" -> fan(r) ? BmcSensor.Kind.FAN : BmcSensor.Kind.OTHER;
      case "" ->
          switch (text(r, "ReadingUnits")) {
            case "Cel" -> BmcSensor.Kind.TEMPERATURE;
            case "RPM" -> BmcSensor.Kind.FAN;
            case "W" -> BmcSensor.Kind.POWER;
            case "V" -> BmcSensor.Kind.VOLTAGE;
            case "%" -> fan(r) ? BmcSensor.Kind.FAN : BmcSensor.Kind.OTHER;
            case "" ->
                switch (text(r, "PhysicalContext")) {
                  case "Fan" -> BmcSensor.Kind.FAN;
                  case "Intake", "Exhaust" -> BmcSensor.Kind.TEMPERATURE;
                  default -> BmcSensor.Kind.OTHER;
                };
            default -> BmcSensor.Kind.OTHER;
          };
      default -> BmcSensor.Kind.OTHER;
    };
  }

  /**
   * Whether a percentage is a fan's: its PhysicalContext is Fan, it has the fan excerpt's {@code
   * SpeedRPM}, or its name or Id says fan ("Chassis Fan #1", "FanBay1").
   */
  private static boolean fan(JsonObject r) {
    return text(r, "PhysicalContext").equals("Fan")
        || r.containsKey("SpeedRPM")
        || FAN.matcher(text(r, "Name").toLowerCase(Locale.ROOT)).find()
        || FAN.matcher(text(r, "Id").toLowerCase(Locale.ROOT)).find();
  }

  /** The sensor's name, with " (Intake)" where it is an intake temperature not named so. */
  private static String name(String name, BmcSensor.Kind kind, JsonObject r) {
    if (kind == BmcSensor.Kind.TEMPERATURE
        && text(r, "PhysicalContext").equals("Intake")
        && !INLET.matcher(name.toLowerCase(Locale.ROOT)).find()) {
      return name + " (Intake)";
    }
    return name;
  }

  private static String text(JsonObject o, String field) {
    return o.getValue(field) instanceof String s ? s : "";
  }

  private static JsonObject object(JsonObject o, String field) {
    return o.getValue(field) instanceof JsonObject j ? j : new JsonObject();
  }

  private static double number(JsonObject o, String field) {
    Object v = o.getValue(field);
    return v instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  private static String health(JsonObject o) {
    return text(object(o, "Status"), "Health");
  }
}
