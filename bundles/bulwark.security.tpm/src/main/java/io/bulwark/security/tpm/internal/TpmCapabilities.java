package io.bulwark.security.tpm.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what a TPM reports about itself through TPM2_GetCapability: its vendor properties, the PCRs
 * allocated in the SHA-256 bank, and the handles loaded in it. Used by the key sealer's activation
 * check and by tests that look for leaked handles.
 */
final class TpmCapabilities {

  static final int CAP_HANDLES = 0x1;
  static final int CAP_PCRS = 0x5;
  static final int CAP_TPM_PROPERTIES = 0x6;

  /** TPM2_PT_MANUFACTURER; the four vendor strings follow it. */
  static final int PT_MANUFACTURER = 0x105;

  /** First handle of transient objects, for {@link #handles}. */
  static final int TRANSIENT_OBJECTS = 0x80000000;

  /** First handle of loaded sessions, for {@link #handles}. */
  static final int LOADED_SESSIONS = 0x02000000;

  private static final int MAX_HANDLES = 254;

  private TpmCapabilities() {}

  /**
   * Returns the loaded handles of the kind {@code first} starts ({@link #TRANSIENT_OBJECTS}...).
   */
  static List<Integer> handles(TpmConnection connection, int first) {
    ByteBuffer data = connection.capability(CAP_HANDLES, first, MAX_HANDLES);
    List<Integer> handles = new ArrayList<>();
    for (int i = data.getInt(); i > 0; i--) {
      int handle = data.getInt();
      if ((handle >>> 24) == (first >>> 24)) {
        handles.add(handle);
      }
    }
    return handles;
  }

  /** Returns {@code count} TPM properties from {@code first} on, in order. */
  static Map<Integer, Integer> properties(TpmConnection connection, int first, int count) {
    ByteBuffer data = connection.capability(CAP_TPM_PROPERTIES, first, count);
    Map<Integer, Integer> properties = new LinkedHashMap<>();
    for (int i = data.getInt(); i > 0; i--) {
      properties.put(data.getInt(), data.getInt());
    }
    return properties;
  }

  /** Returns the manufacturer and vendor strings, e.g. "IBM SW TPM"; empty if it reports none. */
  static String vendor(TpmConnection connection) {
    StringBuilder vendor = new StringBuilder();
    for (int value : properties(connection, PT_MANUFACTURER, 5).values()) {
      for (int shift = 24; shift >= 0; shift -= 8) {
        char c = (char) ((value >>> shift) & 0xff);
        vendor.append(c >= 0x20 && c < 0x7f ? c : ' ');
      }
      vendor.append(' ');
    }
    return vendor.toString().trim().replaceAll("\\s+", " ");
  }

  /** Returns the PCRs allocated in the SHA-256 bank. */
  static PcrSelection sha256Pcrs(TpmConnection connection) {
    ByteBuffer data = connection.capability(CAP_PCRS, 0, 1);
    int mask = 0;
    for (int i = data.getInt(); i > 0; i--) {
      short hash = data.getShort();
      byte[] select = new byte[data.get() & 0xff];
      data.get(select);
      if (hash == TpmTemplates.ALG_SHA256) {
        for (int b = 0; b < Math.min(select.length, PcrSelection.SELECT_BYTES); b++) {
          mask |= (select[b] & 0xff) << (8 * b);
        }
      }
    }
    return new PcrSelection(mask);
  }
}
