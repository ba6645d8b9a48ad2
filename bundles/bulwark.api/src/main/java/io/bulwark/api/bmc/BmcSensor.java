package io.bulwark.api.bmc;

import java.util.Objects;

/**
 * One sensor reading from the BMC.
 *
 * @param name the sensor's name as the BMC gives it, e.g. "CPU1 Temp", "Fan 3"
 * @param kind what it measures
 * @param value the reading (NaN if the sensor reports none)
 * @param unit the unit, e.g. "Cel", "RPM", "W", "V"
 * @param health the BMC's health of the sensor: OK, Warning, Critical, or "" if unknown
 * @param lowerCritical the lower critical threshold, or NaN
 * @param upperCritical the upper critical threshold, or NaN
 */
public record BmcSensor(
    String name,
    Kind kind,
    double value,
    String unit,
    String health,
    double lowerCritical,
    double upperCritical) {
  /** What a sensor measures. */
  public enum Kind {
    TEMPERATURE,
    FAN,
    POWER,
    VOLTAGE,
    POWER_SUPPLY,
    OTHER
  }

  /** Requires name and kind. */
  public BmcSensor {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    unit = Objects.requireNonNullElse(unit, "");
    health = Objects.requireNonNullElse(health, "");
  }
}
