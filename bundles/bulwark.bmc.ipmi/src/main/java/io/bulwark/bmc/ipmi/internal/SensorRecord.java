package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.bmc.ipmi.internal.Wire.MalformedException;
import java.nio.charset.StandardCharsets;

/**
 * A sensor's record from the SDR repository, full (type 01h) or compact (02h) (IPMI v2.0 section
 * 43), and how to turn its raw readings into a {@link BmcSensor}: full records convert with y =
 * L[(M x + B 10^K1) 10^K2] (section 36.3), L the linearization the record names (the formula
 * constants only: readings of non-linear sensors whose factors vary per reading, 70h to 7Fh, are
 * converted with the record's factors); compact records carry no conversion factors, so their
 * readings are states only (value NaN).
 *
 * @param number the sensor number
 * @param lun the owner's LUN to send Get Sensor Reading to
 * @param owner the owner's slave address (0x20: the BMC)
 * @param type the sensor type (01h temperature, 02h voltage, 04h fan, 08h power supply...)
 * @param eventType the event/reading type code (01h threshold, 6Fh sensor-specific...)
 * @param name the ID string
 */
record SensorRecord(
    int number,
    int lun,
    int owner,
    int type,
    int eventType,
    String name,
    int analogFormat,
    int baseUnit,
    boolean percentage,
    int linearization,
    int m,
    int b,
    int k1,
    int k2,
    int readableThresholds,
    int upperCriticalRaw,
    int lowerCriticalRaw) {
  static final int FULL = 0x01;
  static final int COMPACT = 0x02;

  /** Parses a whole record (header included); null for record types other than 01h and 02h. */
  static SensorRecord parse(byte[] r) throws MalformedException {
    int recordType = Wire.u8(r, 3);
    if (recordType != FULL && recordType != COMPACT) {
      return null;
    }
    int owner = Wire.u8(r, 5);
    int lun = Wire.u8(r, 6) & 0x03;
    int number = Wire.u8(r, 7);
    int type = Wire.u8(r, 12);
    int eventType = Wire.u8(r, 13);
    int readable = Wire.u8(r, 18) & 0x3f;
    int units1 = Wire.u8(r, 20);
    int baseUnit = Wire.u8(r, 21);
    if (recordType == COMPACT) {
      return new SensorRecord(
          number,
          lun,
          owner,
          type,
          eventType,
          name(r, 31),
          3,
          baseUnit,
          (units1 & 1) != 0,
          0,
          0,
          0,
          0,
          0,
          0,
          -1,
          -1);
    }
    int mValue = signed10(Wire.u8(r, 24), Wire.u8(r, 25));
    int bValue = signed10(Wire.u8(r, 26), Wire.u8(r, 27));
    int exponents = Wire.u8(r, 29);
    return new SensorRecord(
        number,
        lun,
        owner,
        type,
        eventType,
        name(r, 47),
        (units1 >>> 6) & 0x03,
        baseUnit,
        (units1 & 1) != 0,
        Wire.u8(r, 23) & 0x7f,
        mValue,
        bValue,
        signed4(exponents & 0x0f),
        signed4(exponents >>> 4),
        readable,
        Wire.u8(r, 37),
        Wire.u8(r, 40));
  }

  /** M and B: 8 low bits, then the 2 high bits in bits 7:6 of the next byte; two's complement. */
  private static int signed10(int low, int high) {
    int v = low | (high & 0xc0) << 2;
    return v >= 512 ? v - 1024 : v;
  }

  private static int signed4(int v) {
    return v >= 8 ? v - 16 : v;
  }

  private static String name(byte[] r, int at) throws MalformedException {
    int typeLength = Wire.u8(r, at);
    int length = Math.min(typeLength & 0x1f, r.length - at - 1);
    return new String(r, at + 1, Math.max(0, length), StandardCharsets.ISO_8859_1).strip();
  }

  boolean threshold() {
    return eventType == 0x01;
  }

  /** Converts a raw reading byte; NaN where the record has no analog reading. */
  double convert(int raw) {
    if (analogFormat == 3) {
      return Double.NaN;
    }
    int x =
        switch (analogFormat) {
          case 1 -> (raw & 0x80) != 0 ? -((~raw) & 0x7f) : raw; // one's complement
          case 2 -> (byte) raw; // two's complement
          default -> raw & 0xff;
        };
    double y = (m * (double) x + b * Math.pow(10, k1)) * Math.pow(10, k2);
    return switch (linearization) {
      case 0x01 -> Math.log(y);
      case 0x02 -> Math.log10(y);
      case 0x03 -> Math.log(y) / Math.log(2);
      case 0x04 -> Math.exp(y);
      case 0x05 -> Math.pow(10, y);
      case 0x06 -> Math.pow(2, y);
      case 0x07 -> 1 / y;
      case 0x08 -> y * y;
      case 0x09 -> y * y * y;
      case 0x0a -> Math.sqrt(y);
      case 0x0b -> Math.cbrt(y);
      default -> y;
    };
  }

  BmcSensor.Kind kind() {
    return switch (type) {
      case 0x01 -> BmcSensor.Kind.TEMPERATURE;
      case 0x02 -> BmcSensor.Kind.VOLTAGE;
      case 0x04 -> BmcSensor.Kind.FAN;
      case 0x08 -> BmcSensor.Kind.POWER_SUPPLY;
      default -> baseUnit == 6 ? BmcSensor.Kind.POWER : BmcSensor.Kind.OTHER;
    };
  }

  /** The unit in the words Redfish uses (UCUM): Cel, V, RPM, W... or "" for a state sensor. */
  String unit() {
    if (percentage) {
      return "%";
    }
    return switch (baseUnit) {
      case 1 -> "Cel";
      case 2 -> "[degF]";
      case 3 -> "K";
      case 4 -> "V";
      case 5 -> "A";
      case 6 -> "W";
      case 7 -> "J";
      case 18 -> "RPM";
      case 19 -> "Hz";
      default -> "";
    };
  }

  /**
   * The sensor with a Get Sensor Reading answer ({@code data} after the completion code: reading,
   * flags, threshold status or state bits 0-7, state bits 8-14); null data: no reading.
   */
  BmcSensor reading(byte[] data) {
    boolean available = data != null && data.length >= 2 && (data[1] & 0x20) == 0;
    int status = available && data.length >= 3 ? data[2] & 0xff : 0;
    double value = available && threshold() ? convert(data[0] & 0xff) : Double.NaN;
    String health = available ? health(status) : "";
    return new BmcSensor(
        name,
        kind(),
        value,
        unit(),
        health,
        (readableThresholds & 0x02) != 0 && lowerCriticalRaw >= 0
            ? convert(lowerCriticalRaw)
            : Double.NaN,
        (readableThresholds & 0x10) != 0 && upperCriticalRaw >= 0
            ? convert(upperCriticalRaw)
            : Double.NaN);
  }

  /**
   * Threshold sensors: at or past a critical or non-recoverable threshold is Critical, past a
   * non-critical one Warning. Power supplies (08h, sensor-specific): a failure is Critical, a
   * predicted failure, lost or out-of-range input or configuration error Warning. Other state
   * sensors: "" (their states have no health of their own).
   */
  String health(int status) {
    if (threshold()) {
      if ((status & 0x36) != 0) {
        return "Critical";
      }
      return (status & 0x09) != 0 ? "Warning" : "OK";
    }
    if (type == 0x08 && eventType == 0x6f) {
      if ((status & 0x02) != 0) {
        return "Critical";
      }
      return (status & 0x7c) != 0 ? "Warning" : "OK";
    }
    return "";
  }
}
