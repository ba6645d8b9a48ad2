package io.bulwark.health.dcgm.internal;

import java.util.HashMap;
import java.util.Map;

/**
 * The XID codes NVIDIA documents for A100 and H100 GPUs, each with its meaning in Bulwark's words
 * and the resolution its immediate action calls for. Codes not listed here are unknown: the
 * operator looks them up in NVIDIA's catalog. Used by the XID detector and its options.
 */
final class XidCatalog {
  /** The XIDs that point at the application by default: not findings on the GPU. */
  static final int[] APPLICATION_DEFAULTS = {13, 31, 43, 45};

  private static final Map<Integer, Entry> ENTRIES = new HashMap<>();

  static {
    add(8, XidResolution.RESTART_APP, "the GPU stopped processing a channel (timeout)");
    add(
        13,
        XidResolution.APPLICATION,
        "graphics engine exception: out-of-range access or illegal"
            + " instruction in the application");
    add(
        31,
        XidResolution.APPLICATION,
        "GPU memory page fault: the application made an illegal" + " memory access");
    add(32, XidResolution.RESTART_APP, "invalid or corrupted push buffer stream");
    add(38, XidResolution.RESET_GPU, "driver firmware error");
    add(
        43,
        XidResolution.APPLICATION,
        "GPU stopped processing: the application hit a fault and" + " was stopped");
    add(44, XidResolution.RESET_GPU, "graphics engine fault during a context switch");
    add(
        45,
        XidResolution.APPLICATION,
        "preemptive cleanup: the application was ended after an" + " earlier error");
    add(48, XidResolution.RESET_GPU, "double-bit ECC error: uncorrectable memory error");
    add(61, XidResolution.RESET_GPU, "internal micro-controller breakpoint or warning");
    add(62, XidResolution.RESET_GPU, "internal micro-controller halt");
    add(
        63,
        XidResolution.RESET_AT_DRAIN,
        "row remapping or page retirement recorded: applied at" + " the next GPU reset");
    add(64, XidResolution.RESET_GPU, "row remapping or page retirement could not be recorded");
    add(68, XidResolution.RESTART_APP, "video decoder exception");
    add(69, XidResolution.RESTART_APP, "graphics engine class error");
    add(74, XidResolution.RESET_GPU, "NVLink error");
    add(79, XidResolution.REBOOT_NODE, "GPU has fallen off the bus");
    add(92, XidResolution.RESET_AT_DRAIN, "high single-bit ECC error rate");
    add(93, XidResolution.SERVICE, "InfoROM wear limit exceeded (non-fatal)");
    add(
        94,
        XidResolution.RESTART_APP,
        "contained ECC error: only the application using the bad" + " memory was stopped");
    add(
        95,
        XidResolution.RESET_GPU,
        "uncontained ECC error: every application on the GPU was" + " affected");
    add(109, XidResolution.RESTART_APP, "context switch timeout");
    add(110, XidResolution.RESET_GPU, "security fault");
    add(
        119,
        XidResolution.RESET_GPU,
        "GSP RPC timeout: the GPU system processor stopped" + " answering");
    add(120, XidResolution.RESET_GPU, "GSP error: the GPU system processor reported an error");
    add(121, XidResolution.SERVICE, "corrected error on the chip-to-chip (C2C) link");
    add(122, XidResolution.SERVICE, "SPI PMU RPC read failure");
    add(123, XidResolution.SERVICE, "SPI PMU RPC write failure");
    add(124, XidResolution.SERVICE, "SPI PMU RPC erase failure");
    add(125, XidResolution.SERVICE, "InfoROM file-system failure");
    add(
        137,
        XidResolution.RESTART_APP,
        "NVLink FLA privilege error: an application reached" + " memory it may not");
    add(140, XidResolution.RESET_GPU, "unrecovered ECC error");
    add(143, XidResolution.REBOOT_NODE, "GPU initialisation failure");
    for (int code = 144; code <= 150; code++) {
      add(code, XidResolution.RESET_GPU, "NVLink fabric error reported by a link unit");
    }
    add(151, XidResolution.RESET_GPU, "key rotation error (confidential computing)");
    add(
        154,
        XidResolution.RESET_GPU,
        "GPU recovery action changed: the driver asks for a GPU" + " reset or a node reboot");
  }

  private XidCatalog() {}

  private static void add(int code, XidResolution resolution, String meaning) {
    ENTRIES.put(code, new Entry(resolution, meaning));
  }

  /** Returns the meaning of {@code code} in words, or a note that it is not in the catalog. */
  static String meaning(int code) {
    Entry e = ENTRIES.get(code);
    return e == null
        ? "not in Bulwark's XID catalog; look it up in NVIDIA's XID catalog"
        : e.meaning;
  }

  /** Returns the resolution the catalog gives {@code code}, or UNKNOWN. */
  static XidResolution resolution(int code) {
    Entry e = ENTRIES.get(code);
    return e == null ? XidResolution.UNKNOWN : e.resolution;
  }

  private record Entry(XidResolution resolution, String meaning) {}
}
