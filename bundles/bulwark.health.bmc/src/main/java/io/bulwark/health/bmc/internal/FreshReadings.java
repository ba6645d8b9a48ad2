package io.bulwark.health.bmc.internal;

import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.machine.MachineReadings;
import io.bulwark.api.machine.MachineService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The BMC readings recent enough to judge, and the evidence the detectors show. */
final class FreshReadings {
  static final String OK = "OK";
  static final String WARNING = "Warning";
  static final String CRITICAL = "Critical";

  private FreshReadings() {}

  /** Checks a configured age: 30 s to a day. */
  static long maxAgeMillis(int seconds, String pid) {
    if (seconds < 30 || seconds > 86_400) {
      throw new IllegalArgumentException(
          "maxAgeSeconds of " + pid + " must be between 30 and 86400, got " + seconds);
    }
    return seconds * 1000L;
  }

  /** Returns the readings of machines whose BMC answered within {@code maxAgeMillis}. */
  static List<MachineReadings> of(MachineService machines, long nowMillis, long maxAgeMillis) {
    List<MachineReadings> fresh = new ArrayList<>();
    for (MachineReadings r : machines.readings()) {
      if (r.error().isEmpty() && nowMillis - r.atMillis() <= maxAgeMillis) {
        fresh.add(r);
      }
    }
    return fresh;
  }

  /** Returns true if the BMC rates the sensor Critical. */
  static boolean critical(BmcSensor s) {
    return CRITICAL.equalsIgnoreCase(s.health());
  }

  /** Returns true if the reading is past one of the sensor's critical thresholds. */
  static boolean pastThreshold(BmcSensor s) {
    return Double.isFinite(s.value())
        && ((Double.isFinite(s.lowerCritical()) && s.value() < s.lowerCritical())
            || (Double.isFinite(s.upperCritical()) && s.value() > s.upperCritical()));
  }

  /** Returns the evidence every BMC finding starts with: the machine and when its BMC was read. */
  static Map<String, String> evidence(MachineReadings r) {
    Map<String, String> e = new LinkedHashMap<>();
    e.put("machine", r.machine().value());
    e.put("source", "BMC");
    e.put("readAt", Instant.ofEpochMilli(r.atMillis()).toString());
    return e;
  }

  /** Adds a sensor's reading, health and thresholds under {@code prefix}. */
  static void add(Map<String, String> e, String prefix, BmcSensor s) {
    e.put(prefix, s.name());
    e.put(prefix + ".reading", describe(s));
    if (!s.health().isEmpty()) {
      e.put(prefix + ".health", s.health());
    }
    if (Double.isFinite(s.lowerCritical())) {
      e.put(prefix + ".lowerCritical", number(s.lowerCritical()) + " " + s.unit());
    }
    if (Double.isFinite(s.upperCritical())) {
      e.put(prefix + ".upperCritical", number(s.upperCritical()) + " " + s.unit());
    }
  }

  /** Returns "3120 RPM", "no reading". */
  static String describe(BmcSensor s) {
    return Double.isFinite(s.value()) ? (number(s.value()) + " " + s.unit()).strip() : "no reading";
  }

  static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString((long) v)
        : String.format(Locale.ROOT, "%.1f", v);
  }
}
