package io.bulwark.security.tpm.internal;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.LongByReference;
import java.util.EnumMap;
import java.util.Map;

/**
 * Converts between TPM wire format (big-endian, as the TPM 2.0 specification marshals it) and the C
 * structures ESAPI takes, through {@code libtss2-mu}'s {@code Tss2_MU_*_Marshal/Unmarshal}. This
 * keeps the JNA binding free of hand-written structure layouts: the key sealer builds templates as
 * bytes and lets tpm2-tss lay them out. Stateless and thread-safe.
 */
final class WireFormat {

  /** The TPM structures the key sealer exchanges with ESAPI. */
  enum Type {
    TPM2B_PUBLIC,
    TPM2B_PRIVATE,
    TPM2B_SENSITIVE_CREATE,
    TPML_PCR_SELECTION,
    TPMT_SYM_DEF,
    TPML_DIGEST_VALUES,
    TPMS_CAPABILITY_DATA
  }

  /**
   * Bytes reserved for one C structure or its wire form: more than the largest of {@link Type}
   * (TPMS_CAPABILITY_DATA and TPM2B_PRIVATE, about 1.5 KiB with tpm2-tss 3.x).
   */
  static final int STRUCT_BYTES = 8192;

  private final Map<Type, Function> marshal = new EnumMap<>(Type.class);
  private final Map<Type, Function> unmarshal = new EnumMap<>(Type.class);

  /**
   * @throws UnsatisfiedLinkError if the library lacks one of the functions
   */
  WireFormat(NativeLibrary mu) {
    for (Type type : Type.values()) {
      marshal.put(type, mu.getFunction("Tss2_MU_" + type.name() + "_Marshal"));
      unmarshal.put(type, mu.getFunction("Tss2_MU_" + type.name() + "_Unmarshal"));
    }
  }

  /**
   * Returns zeroed native memory large enough for any structure: an empty TPM2B or TPML. The caller
   * closes it.
   */
  static Memory empty() {
    Memory memory = new Memory(STRUCT_BYTES);
    memory.clear();
    return memory;
  }

  /**
   * Returns native memory holding the C structure {@code wire} decodes to; the caller closes it
   * (and clears it first when it holds a secret).
   *
   * @throws IllegalArgumentException if {@code wire} is not exactly one well-formed {@code type}
   */
  Memory toStruct(Type type, byte[] wire) {
    Memory source = new Memory(Math.max(1, wire.length));
    Memory struct = empty();
    try {
      source.write(0, wire, 0, wire.length);
      LongByReference offset = new LongByReference(0);
      int rc =
          unmarshal.get(type).invokeInt(new Object[] {source, (long) wire.length, offset, struct});
      if (rc != 0) {
        throw new IllegalArgumentException(
            type + " is malformed (" + String.format("0x%x", rc) + ")");
      }
      if (offset.getValue() != wire.length) {
        throw new IllegalArgumentException(
            type + " is followed by " + (wire.length - offset.getValue()) + " unexpected bytes");
      }
      return struct;
    } catch (RuntimeException e) {
      struct.close();
      throw e;
    } finally {
      source.clear();
      source.close();
    }
  }

  /**
   * Returns the wire form of the C structure at {@code struct}.
   *
   * @throws IllegalStateException if tpm2-tss cannot marshal it
   */
  byte[] toWire(Type type, Pointer struct) {
    Memory target = new Memory(STRUCT_BYTES);
    try {
      LongByReference offset = new LongByReference(0);
      int rc =
          marshal.get(type).invokeInt(new Object[] {struct, target, (long) STRUCT_BYTES, offset});
      if (rc != 0) {
        throw new IllegalStateException(
            "Cannot marshal " + type + " (" + String.format("0x%x", rc) + ")");
      }
      return target.getByteArray(0, (int) offset.getValue());
    } finally {
      target.close();
    }
  }
}
