package io.bulwark.lib.exposition;

/**
 * DCGM's blank values: the sentinels DCGM puts in a field it could not read (not supported, not
 * found, not permitted, or simply no value yet), as {@code dcgm_structs.h} defines them. A blank is
 * an absence, never a reading: a page may carry one as a number (an int64 blank prints as
 * 9223372036854775792 or above, an int32 blank as 2147483632 to 2147483635, a double blank as
 * 140737488355328 or above), as NaN, or as a string blank ({@code <<<NULL>>>}, {@code
 * <<<NOT_FOUND>>>}, {@code <<<NOT_SUPPORTED>>>}, {@code <<<NOT_PERMISSIONED>>>}) in a label.
 *
 * <p>DCGM's rules: an int64 value is blank from {@code DCGM_INT64_BLANK} (0x7ffffffffffffff0) up,
 * an int32 value from {@code DCGM_INT32_BLANK} (0x7ffffff0) up, a double from {@code
 * DCGM_FP64_BLANK} (2^47) up, a string if it starts with {@code <<<} and holds {@code >>>}. Read
 * from a page every number is a double: an int64 blank rounds to 2^63, which no reading reaches; a
 * double field's blank is 2^47 or more, which no temperature, power, clock or ratio reaches. An
 * integer field's own values may pass 2^31 (energy, byte and error counters), so only the sixteen
 * values from DCGM's int32 blank to the largest int32 are taken for blanks there (an int32 field
 * cannot pass them; a 64-bit counter that crosses 2^31 reads as absent only for a sample that lands
 * on one of those sixteen values).
 */
public final class DcgmBlanks {
  /** {@code DCGM_INT64_BLANK}, 0x7ffffffffffffff0, as the double a page's digits read as. */
  static final double INT64_BLANK = 0x7ffffffffffffff0L;

  /** {@code DCGM_INT32_BLANK}, 0x7ffffff0. */
  static final double INT32_BLANK = 0x7ffffff0;

  /** The largest int32: an int32 field's value from {@link #INT32_BLANK} up to here is blank. */
  static final double INT32_LAST = Integer.MAX_VALUE;

  /** {@code DCGM_FP64_BLANK}, 140737488355328.0 (2^47). */
  static final double FP64_BLANK = 140737488355328.0;

  /** How a field's values are blanked: by its DCGM type. */
  public enum Kind {
    /** An integer field (DCGM_FT_INT64, read from an int32 or int64 counter or gauge). */
    INTEGER,
    /** A floating-point field (DCGM_FT_DOUBLE). */
    DOUBLE;

    /** Names the blank {@code value} is, for an operator: "NaN", "DCGM's int64 blank"... */
    public String describe(double value) {
      if (Double.isNaN(value)) {
        return "NaN";
      }
      if (value >= INT64_BLANK) {
        return "DCGM's int64 blank";
      }
      return this == DOUBLE ? "DCGM's double blank" : "DCGM's int32 blank";
    }

    /** Returns true if {@code value} is one of DCGM's blanks for a field of this kind. */
    public boolean isBlank(double value) {
      if (Double.isNaN(value) || value >= INT64_BLANK) {
        return true;
      }
      return this == DOUBLE
          ? value >= FP64_BLANK
          : value >= INT32_BLANK && value <= INT32_LAST && value == Math.rint(value);
    }
  }

  private DcgmBlanks() {}

  /**
   * Returns the kind of the DCGM field {@code name}: DOUBLE for the profiling fields and the fields
   * dcgm-exporter prints with decimals, INTEGER otherwise.
   */
  public static Kind kindOf(String name) {
    if (name.startsWith("DCGM_FI_PROF_")) {
      return Kind.DOUBLE;
    }
    DcgmFieldInfo info = DcgmFieldInfo.find(name);
    return info != null && info.decimal() ? Kind.DOUBLE : Kind.INTEGER;
  }

  /**
   * Returns true if {@code value} is one of DCGM's string blanks: it starts with {@code <<<} and
   * holds {@code >>>}, as {@code DCGM_STR_IS_BLANK} decides.
   */
  public static boolean isBlank(String value) {
    return value != null && value.startsWith("<<<") && value.indexOf(">>>", 3) >= 0;
  }
}
