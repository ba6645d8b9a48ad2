package io.bulwark.agent.internal;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;

/**
 * The {@code nvml.h} structures the node agent passes to {@link NvmlLibrary}, laid out field for
 * field as the C declarations (JNA applies the platform's C alignment). Each instance is filled by
 * one call and read by the same thread.
 */
public final class NvmlStructures {
  private NvmlStructures() {}

  /** {@code nvmlPciInfo_t} (v3): the bus id as {@code 00000000:18:00.0}. */
  @FieldOrder({"busIdLegacy", "domain", "bus", "device", "pciDeviceId", "pciSubSystemId", "busId"})
  public static final class PciInfo extends Structure {
    public byte[] busIdLegacy = new byte[16];
    public int domain;
    public int bus;
    public int device;
    public int pciDeviceId;
    public int pciSubSystemId;
    public byte[] busId = new byte[32];
  }

  /** {@code nvmlUtilization_t}: percent of the last sample period. */
  @FieldOrder({"gpu", "memory"})
  public static final class Utilization extends Structure {
    public int gpu;
    public int memory;
  }

  /** {@code nvmlViolationTime_t}: nanoseconds the clocks were held below their target. */
  @FieldOrder({"referenceTime", "violationTime"})
  public static final class ViolationTime extends Structure {
    public long referenceTime;
    public long violationTime;
  }

  /** {@code nvmlRowRemapperHistogramValues_t}: memory banks per remap availability. */
  @FieldOrder({"max", "high", "partial", "low", "none"})
  public static final class RemapperHistogram extends Structure {
    public int max;
    public int high;
    public int partial;
    public int low;
    public int none;
  }

  /**
   * {@code nvmlFieldValue_t}; the {@code nvmlValue_t} union is read as its 8 raw bytes and decoded
   * by {@link #number()} according to {@code valueType} (little-endian, as on every platform NVML
   * ships for).
   */
  @FieldOrder({
    "fieldId",
    "scopeId",
    "timestamp",
    "latencyUsec",
    "valueType",
    "nvmlReturn",
    "value"
  })
  public static final class FieldValue extends Structure {
    static final int DOUBLE = 0;
    static final int UNSIGNED_INT = 1;
    static final int UNSIGNED_LONG = 2;
    static final int UNSIGNED_LONG_LONG = 3;
    static final int SIGNED_LONG_LONG = 4;
    static final int SIGNED_INT = 5;
    static final int UNSIGNED_SHORT = 6;

    public int fieldId;
    public int scopeId;
    public long timestamp;
    public long latencyUsec;
    public int valueType;
    public int nvmlReturn;
    public long value;

    /** Returns the value as a double, or NaN for a value type this agent does not know. */
    double number() {
      return switch (valueType) {
        case DOUBLE -> Double.longBitsToDouble(value);
        case UNSIGNED_INT -> (double) (value & 0xFFFF_FFFFL);
        case UNSIGNED_LONG, UNSIGNED_LONG_LONG -> Double.parseDouble(Long.toUnsignedString(value));
        case SIGNED_LONG_LONG -> (double) value;
        case SIGNED_INT -> (double) (int) value;
        case UNSIGNED_SHORT -> (double) (value & 0xFFFFL);
        default -> Double.NaN;
      };
    }
  }

  /** {@code nvmlEventData_t}: the GPU and, for an XID event, the XID code. */
  @FieldOrder({"device", "eventType", "eventData", "gpuInstanceId", "computeInstanceId"})
  public static final class EventData extends Structure {
    public Pointer device;
    public long eventType;
    public long eventData;
    public int gpuInstanceId;
    public int computeInstanceId;
  }
}
