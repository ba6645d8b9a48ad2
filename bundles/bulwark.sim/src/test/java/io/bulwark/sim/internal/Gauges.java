package io.bulwark.sim.internal;

import io.bulwark.api.telemetry.DcgmField;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Splits a simulated page into what a cleared fault leaves behind (the cumulative counters it added
 * to, and the spare-row histogram that follows the remapped rows) and everything else, for tests
 * that check a GPU reads healthy again once its fault has cleared.
 */
final class Gauges {
  /** The fields a fault may leave changed after it cleared. */
  static final Set<String> LASTING =
      Set.of(
          DcgmField.ECC_SBE_VOL_TOTAL,
          DcgmField.ECC_SBE_AGG_TOTAL,
          DcgmField.ECC_DBE_AGG_TOTAL,
          DcgmField.RETIRED_SBE,
          DcgmField.CORRECTABLE_REMAPPED_ROWS,
          DcgmField.BANKS_REMAP_ROWS_AVAIL_MAX,
          DcgmField.BANKS_REMAP_ROWS_AVAIL_HIGH,
          DcgmField.NVLINK_CRC_FLIT_ERRORS,
          DcgmField.NVLINK_CRC_DATA_ERRORS,
          DcgmField.NVLINK_REPLAY_ERRORS,
          DcgmField.NVLINK_RECOVERY_ERRORS,
          DcgmField.PCIE_REPLAY_COUNTER,
          DcgmField.POWER_VIOLATION,
          DcgmField.THERMAL_VIOLATION);

  private Gauges() {}

  /** Returns "metric@gpu" to value for every line of the page but the lasting fields. */
  static Map<String, Double> of(SimulatedFleet fleet, String node, long t) {
    Map<String, Double> values = new TreeMap<>();
    for (PrometheusText.Sample s :
        PrometheusText.parse(fleet.page(node, t).orElseThrow()).samples()) {
      if (!LASTING.contains(s.name())) {
        values.put(s.name() + "@" + s.label("gpu"), s.value());
      }
    }
    return values;
  }

  /** Returns "metric@gpu" to value for the lasting fields of the page. */
  static Map<String, Double> lasting(SimulatedFleet fleet, String node, long t) {
    Map<String, Double> values = new TreeMap<>();
    for (PrometheusText.Sample s :
        PrometheusText.parse(fleet.page(node, t).orElseThrow()).samples()) {
      if (LASTING.contains(s.name())) {
        values.put(s.name() + "@" + s.label("gpu"), s.value());
      }
    }
    return values;
  }
}
