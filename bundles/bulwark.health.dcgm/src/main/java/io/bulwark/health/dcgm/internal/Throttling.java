package io.bulwark.health.dcgm.internal;

import io.bulwark.api.telemetry.DcgmField;

/**
 * A sustained throttle measured on one busy GPU: how many samples carried the throttle bits, which
 * reasons were set, and how fast the GPU ran against its reference clock. Made by {@link
 * ThrottleJudge}; turned into a condition by the thermal and power throttle detectors.
 *
 * @param violationShare the share of the window in violation by the driver's counter, NaN if not
 *     served
 * @param performanceFactor mean SM clock / reference clock, clamped to [0.05, 1]; 1 when the clock
 *     is unknown
 */
record Throttling(
    int samples,
    int throttledSamples,
    String reasonsSeen,
    String masks,
    double violationShare,
    Busyness busyness,
    double meanSmClockMhz,
    double referenceSmClockMhz,
    String referenceBasis,
    double performanceFactor) {

  double fraction() {
    return samples == 0 ? 0 : (double) throttledSamples / samples;
  }

  /** Says how much of the window was throttled: by samples, or by the violation counter. */
  String extent(int windowSeconds) {
    if (samples > 0 && fraction() >= (Double.isFinite(violationShare) ? violationShare : 0)) {
      return "in "
          + throttledSamples
          + " of "
          + samples
          + " samples over the last "
          + windowSeconds
          + " s";
    }
    return "for "
        + Evidence.percent(violationShare)
        + " of the last "
        + windowSeconds
        + " s (violation-time counter)";
  }

  /** Returns the evidence every throttle condition carries. */
  Evidence evidence(String bits, ThrottleOptions options) {
    Evidence e =
        Evidence.of(DcgmField.CLOCKS_EVENT_REASONS)
            .put("values", masks)
            .put("reasonsSeen", reasonsSeen)
            .put("throttledSamples", throttledSamples + " of " + samples)
            .threshold(
                bits
                    + " set in >= "
                    + Evidence.percent(options.sustainedFraction())
                    + " of busy samples covering at least "
                    + options.minSeconds()
                    + " s")
            .window(options.windowSeconds())
            .put("busy", busyness.basis())
            .put(
                "violationTimeShare",
                Double.isFinite(violationShare) ? Evidence.percent(violationShare) : "not served")
            .put("referenceBasis", referenceBasis);
    if (Double.isFinite(meanSmClockMhz)) {
      e.put("meanSmClockMhz", meanSmClockMhz);
    }
    if (Double.isFinite(referenceSmClockMhz)) {
      e.put("referenceSmClockMhz", referenceSmClockMhz);
    }
    e.put("performanceFactor", performanceFactor);
    return e;
  }
}
