package io.bulwark.health.dcgm.internal;

import java.util.Map;
import java.util.Set;

/**
 * The XID codes Bulwark knows: their meaning in words, as NVIDIA's XID catalog gives it, and the
 * codes that are hardware faults or application faults by default. Used by the XID detector and its
 * options.
 */
final class XidCatalog {
  /** XIDs that mean the GPU itself is faulty. */
  static final Set<Integer> HARDWARE = Set.of(48, 63, 64, 74, 79, 92, 93, 94, 95, 119, 120);

  private static final Map<Integer, String> MEANINGS =
      Map.ofEntries(
          Map.entry(
              13,
              "graphics engine exception: the application accessed memory out of range or ran an"
                  + " illegal instruction"),
          Map.entry(31, "GPU memory page fault: the application made an illegal memory access"),
          Map.entry(32, "invalid or corrupted push buffer stream"),
          Map.entry(43, "GPU stopped processing: the application hit a fault and was stopped"),
          Map.entry(45, "preemptive cleanup: the application was ended after an earlier error"),
          Map.entry(48, "double-bit ECC error: uncorrectable memory error"),
          Map.entry(61, "internal micro-controller breakpoint or warning"),
          Map.entry(62, "internal micro-controller halt"),
          Map.entry(63, "ECC page retirement or row remapping recording event"),
          Map.entry(64, "ECC page retirement or row remapping recording failure"),
          Map.entry(68, "video processor exception"),
          Map.entry(69, "graphics engine class error"),
          Map.entry(74, "NVLink error"),
          Map.entry(79, "GPU has fallen off the bus"),
          Map.entry(92, "high single-bit ECC error rate"),
          Map.entry(93, "non-fatal violation of the provisioned InfoROM wear limit"),
          Map.entry(94, "contained ECC error: the application on the affected memory was stopped"),
          Map.entry(95, "uncontained ECC error: every application on the GPU was affected"),
          Map.entry(119, "GSP RPC timeout: the GPU system processor stopped answering"),
          Map.entry(120, "GSP error: the GPU system processor reported an error"));

  private XidCatalog() {}

  /** Returns the meaning of {@code code} in words, or a note that it is not in the catalog. */
  static String meaning(int code) {
    return MEANINGS.getOrDefault(
        code, "not in Bulwark's XID catalog; see NVIDIA's XID documentation");
  }
}
