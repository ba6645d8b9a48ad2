package io.bulwark.sim.internal;

import io.bulwark.api.health.FindingKind;
import java.util.List;
import java.util.Optional;

/**
 * The faults the simulator can put on a GPU (or, for {@code telemetry-stale}, on its node), with
 * the findings each should raise ({@link FindingKind}, the main one first) and the optional
 * parameter each takes. What each does to the readings is {@link FaultEffects}'.
 */
enum FaultKind {
  XID("xid", FaultParameter.whole("xid", 1, 1000, 79), FindingKind.XID),
  ECC_DBE("ecc-dbe", null, FindingKind.ECC_DBE),
  SBE_STORM(
      "sbe-storm",
      FaultParameter.number("errorsPerMinute", 1, 100_000, 60),
      FindingKind.ECC_SBE_RATE),
  RETIRED_PAGES_PENDING(
      "retired-pages-pending",
      FaultParameter.whole("pages", 1, 1000, 2),
      FindingKind.RETIRED_PAGES_PENDING),
  ROW_REMAP_PENDING("row-remap-pending", null, FindingKind.ROW_REMAP_PENDING),
  ROW_REMAP_FAILURE("row-remap-failure", null, FindingKind.ROW_REMAP_FAILURE),
  SPARE_ROWS_LOW(
      "spare-rows-low",
      FaultParameter.whole("banks", 1, GpuModel.REMAP_BANKS - 1, 2),
      FindingKind.ROW_REMAP_FAILURE),
  NVLINK_ERRORS(
      "nvlink-errors",
      FaultParameter.number("crcErrorsPerSecond", 0, 1_000_000, 300),
      FindingKind.NVLINK_ERRORS),
  PCIE_REPLAY(
      "pcie-replay",
      FaultParameter.number("replaysPerMinute", 1, 1_000_000, 60),
      FindingKind.PCIE_REPLAY),
  PCIE_DOWNTRAINED(
      "pcie-downtrained",
      FaultParameter.oneOf("width", 8, List.of(1.0, 2.0, 4.0, 8.0)),
      FindingKind.PCIE_DOWNTRAINED),
  THERMAL_THROTTLE(
      "thermal-throttle", null, FindingKind.THERMAL_THROTTLE, FindingKind.THERMAL_MARGIN),
  POWER_THROTTLE("power-throttle", null, FindingKind.POWER_THROTTLE),
  THERMAL_MARGIN(
      "thermal-margin",
      FaultParameter.number("marginCelsius", 1, 30, 2),
      FindingKind.THERMAL_MARGIN),
  STRAGGLER(
      "straggler", FaultParameter.number("slowdownPercent", 1, 90, 10), FindingKind.STRAGGLER),
  GPU_MISSING("gpu-missing", null, FindingKind.GPU_MISSING),
  TELEMETRY_STALE(
      "telemetry-stale",
      FaultParameter.word("mode", List.of("close", "hang")),
      FindingKind.TELEMETRY_STALE);

  /**
   * Returns true if a power cycle of the node clears the fault, as it does on real GPUs: an XID
   * that needs a reset or reboot, a GPU fallen off the bus, a remap or retirement waiting for the
   * next reset, a GPU left slow by a stuck clock. Worn hardware (failed remaps, DBEs, SBE storms),
   * cooling and links stay.
   */
  boolean clearedByReboot() {
    return switch (this) {
      case XID, GPU_MISSING, ROW_REMAP_PENDING, RETIRED_PAGES_PENDING, STRAGGLER -> true;
      default -> false;
    };
  }

  /** The value of {@code telemetry-stale}'s mode that closes each scrape's connection. */
  static final int STALE_CLOSE = 0;

  /** The value of {@code telemetry-stale}'s mode that leaves each scrape unanswered. */
  static final int STALE_HANG = 1;

  private final String word;
  private final FaultParameter parameter;
  private final List<String> findings;

  FaultKind(String word, FaultParameter parameter, String... findings) {
    this.word = word;
    this.parameter = parameter;
    this.findings = List.of(findings);
  }

  /** Returns the kind as the control API spells it, e.g. {@code thermal-throttle}. */
  String word() {
    return word;
  }

  /** Returns the parameter this kind reads from a request, or empty if it takes none. */
  Optional<FaultParameter> parameter() {
    return Optional.ofNullable(parameter);
  }

  /** Returns the parameter's default value, or NaN for a kind without one. */
  double defaultValue() {
    return parameter == null ? Double.NaN : parameter.defaultValue();
  }

  /**
   * Returns the finding kinds this fault raises on the detectors: the main one first, then those
   * that follow from it (a GPU that throttles for heat has no thermal margin left either).
   */
  List<String> findings() {
    return findings;
  }

  /** Returns true if the fault concerns the whole node rather than one GPU. */
  boolean nodeLevel() {
    return this == TELEMETRY_STALE;
  }

  /** Returns the kind spelled {@code word}, or empty. */
  static Optional<FaultKind> parse(String word) {
    for (FaultKind kind : values()) {
      if (kind.word.equals(word)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }
}
