package io.bulwark.security.tpm.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A set of PCR indices (0 to 23) of the SHA-256 bank that a sealed secret is bound to; empty means
 * no PCR policy. Parsed from the {@code pcrs} configuration property and stored in the sealed blob.
 *
 * @param mask bit {@code i} set when PCR {@code i} is selected
 */
record PcrSelection(int mask) {

  /** PCRs a PC-client TPM has in each bank. */
  static final int PCR_COUNT = 24;

  /** Bytes of a PCR select bitmap covering {@link #PCR_COUNT} PCRs. */
  static final int SELECT_BYTES = 3;

  /** No PCR binding. */
  static final PcrSelection NONE = new PcrSelection(0);

  /**
   * @throws IllegalArgumentException if a bit above PCR 23 is set
   */
  PcrSelection {
    if ((mask & ~((1 << PCR_COUNT) - 1)) != 0) {
      throw new IllegalArgumentException("PCR indices must be 0 to 23");
    }
  }

  /**
   * Parses a comma-separated list such as {@code "0,7"}; blank means no PCR binding.
   *
   * @throws IllegalArgumentException naming the {@code pcrs} property and the offending entry
   */
  static PcrSelection parse(String text) {
    if (text == null || text.isBlank()) {
      return NONE;
    }
    int mask = 0;
    for (String part : text.split(",", -1)) {
      String entry = part.trim();
      int index;
      try {
        index = Integer.parseInt(entry);
      } catch (NumberFormatException e) {
        index = -1;
      }
      if (index < 0 || index >= PCR_COUNT) {
        throw new IllegalArgumentException(
            "pcrs must list PCR indices 0 to 23 separated by commas (e.g. \"0,7\"); \""
                + entry
                + "\" in \""
                + text
                + "\" is not one");
      }
      mask |= 1 << index;
    }
    return new PcrSelection(mask);
  }

  /**
   * Reads a TPMS_PCR_SELECTION bitmap ({@code pcrSelect}, PCR 0 in bit 0 of byte 0).
   *
   * @throws IllegalArgumentException if it selects a PCR above 23 or is longer than 4 bytes
   */
  static PcrSelection fromBitmap(byte[] select) {
    if (select.length > 4) {
      throw new IllegalArgumentException(
          "a PCR bitmap has at most 4 bytes, found " + select.length);
    }
    int mask = 0;
    for (int i = 0; i < select.length; i++) {
      mask |= (select[i] & 0xff) << (8 * i);
    }
    return new PcrSelection(mask);
  }

  /** Returns the TPMS_PCR_SELECTION bitmap, {@link #SELECT_BYTES} long. */
  byte[] bitmap() {
    byte[] select = new byte[SELECT_BYTES];
    for (int i = 0; i < SELECT_BYTES; i++) {
      select[i] = (byte) (mask >>> (8 * i));
    }
    return select;
  }

  boolean isEmpty() {
    return mask == 0;
  }

  /** Returns the selected indices in ascending order. */
  List<Integer> indices() {
    List<Integer> indices = new ArrayList<>();
    for (int i = 0; i < PCR_COUNT; i++) {
      if ((mask & (1 << i)) != 0) {
        indices.add(i);
      }
    }
    return indices;
  }

  /** Returns the indices as {@code "0,7"}. */
  @Override
  public String toString() {
    return indices().stream().map(String::valueOf).collect(Collectors.joining(","));
  }
}
