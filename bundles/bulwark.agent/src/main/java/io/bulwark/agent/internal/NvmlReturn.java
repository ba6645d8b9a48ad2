package io.bulwark.agent.internal;

/**
 * The {@code nvmlReturn_t} codes the node agent tells apart, with their {@code nvml.h} names for
 * log lines that an operator can look up.
 */
final class NvmlReturn {
  static final int SUCCESS = 0;
  static final int UNINITIALIZED = 1;
  static final int INVALID_ARGUMENT = 2;
  static final int NOT_SUPPORTED = 3;
  static final int NO_PERMISSION = 4;
  static final int NOT_FOUND = 6;
  static final int INSUFFICIENT_SIZE = 7;
  static final int DRIVER_NOT_LOADED = 9;
  static final int TIMEOUT = 10;
  static final int LIBRARY_NOT_FOUND = 12;
  static final int FUNCTION_NOT_FOUND = 13;
  static final int GPU_IS_LOST = 15;
  static final int RESET_REQUIRED = 16;
  static final int LIB_RM_VERSION_MISMATCH = 18;
  static final int NO_DATA = 21;
  static final int UNKNOWN = 999;

  private static final String[] NAMES = {
    "NVML_SUCCESS",
    "NVML_ERROR_UNINITIALIZED",
    "NVML_ERROR_INVALID_ARGUMENT",
    "NVML_ERROR_NOT_SUPPORTED",
    "NVML_ERROR_NO_PERMISSION",
    "NVML_ERROR_ALREADY_INITIALIZED",
    "NVML_ERROR_NOT_FOUND",
    "NVML_ERROR_INSUFFICIENT_SIZE",
    "NVML_ERROR_INSUFFICIENT_POWER",
    "NVML_ERROR_DRIVER_NOT_LOADED",
    "NVML_ERROR_TIMEOUT",
    "NVML_ERROR_IRQ_ISSUE",
    "NVML_ERROR_LIBRARY_NOT_FOUND",
    "NVML_ERROR_FUNCTION_NOT_FOUND",
    "NVML_ERROR_CORRUPTED_INFOROM",
    "NVML_ERROR_GPU_IS_LOST",
    "NVML_ERROR_RESET_REQUIRED",
    "NVML_ERROR_OPERATING_SYSTEM",
    "NVML_ERROR_LIB_RM_VERSION_MISMATCH",
    "NVML_ERROR_IN_USE",
    "NVML_ERROR_MEMORY",
    "NVML_ERROR_NO_DATA"
  };

  private NvmlReturn() {}

  /** Returns the {@code nvml.h} name of {@code code} with the number, e.g. "NVML_ERROR_..(9)". */
  static String name(int code) {
    String name =
        code >= 0 && code < NAMES.length
            ? NAMES[code]
            : code == UNKNOWN ? "NVML_ERROR_UNKNOWN" : "nvmlReturn_t";
    return name + "(" + code + ")";
  }

  /** Returns true for the codes that mean "this GPU does not have this reading". */
  static boolean absent(int code) {
    return code == NOT_SUPPORTED || code == FUNCTION_NOT_FOUND || code == NOT_FOUND;
  }
}
