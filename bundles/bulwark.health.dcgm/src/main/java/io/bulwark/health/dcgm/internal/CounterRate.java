package io.bulwark.health.dcgm.internal;

import io.bulwark.api.telemetry.SampleWindow;
import io.bulwark.api.telemetry.SeriesId;
import io.bulwark.api.telemetry.TelemetryQuery;

/**
 * How much a cumulative counter (errors, replays, microseconds in violation) rose over a window,
 * robust to what counters do in the field. A drop followed by a return to the old level is a glitch
 * (a lost or zero sample, a flapping exporter) and is skipped; a drop that stays is a reset (GPU
 * reset, driver reload) and counts the new value as the rise since the reset, never as a negative
 * rise. Non-finite and negative samples are ignored. Used by the counter-rate detectors of this
 * bundle.
 *
 * @param increase the rise of the counter over the window, resets accounted for
 * @param elapsedSeconds the time between the first and the last usable sample
 * @param resets how many resets the window holds
 * @param glitches how many samples were skipped as glitches
 * @param samples how many usable samples the window holds
 */
record CounterRate(double increase, double elapsedSeconds, int resets, int glitches, int samples) {

  private static final CounterRate NONE = new CounterRate(0, 0, 0, 0, 0);

  /** How far before a window the counter's level is read, so a window opening on a glitch. */
  static final long PRE_ROLL_MILLIS = 30_000;

  /**
   * Measures the rise of {@code series} from {@code fromMillis} on. The samples of the {@link
   * #PRE_ROLL_MILLIS} before set the level the rise is measured from, so that a window opening on a
   * glitch (a blank zero reading) does not count the return to the true value as new errors.
   */
  static CounterRate of(TelemetryQuery telemetry, SeriesId series, long fromMillis) {
    return of(telemetry.window(series, fromMillis - PRE_ROLL_MILLIS), fromMillis);
  }

  /** Measures the rise of the counter in {@code window}. */
  static CounterRate of(SampleWindow window) {
    return of(window, Long.MIN_VALUE);
  }

  /**
   * Measures the rise in {@code window} from {@code countFromMillis}; earlier samples set the
   * level.
   */
  static CounterRate of(SampleWindow window, long countFromMillis) {
    int n = window.size();
    return n > 0 && isFlat(window)
        ? flat(window, countFromMillis)
        : measured(window, countFromMillis);
  }

  /** Measures any window, sample by sample; {@link #of} takes a shortcut for a flat one. */
  static CounterRate measured(SampleWindow window, long countFromMillis) {
    int n = window.size();
    double[] suffixMax = new double[n + 1];
    suffixMax[n] = Double.NEGATIVE_INFINITY;
    for (int i = n - 1; i >= 0; i--) {
      double v = window.value(i);
      suffixMax[i] = usable(v) ? Math.max(v, suffixMax[i + 1]) : suffixMax[i + 1];
    }
    double level = Double.NaN;
    long first = 0;
    long last = 0;
    double increase = 0;
    int resets = 0;
    int glitches = 0;
    int samples = 0;
    for (int i = 0; i < n; i++) {
      double v = window.value(i);
      if (!usable(v)) {
        continue;
      }
      if (window.timestamp(i) < countFromMillis) {
        if (Double.isNaN(level) || v >= level || suffixMax[i + 1] < level) {
          level = v;
          first = window.timestamp(i);
        }
        continue;
      }
      samples++;
      if (samples == 1 && Double.isNaN(level)) {
        first = window.timestamp(i);
      }
      if (Double.isNaN(level)) {
        level = v;
      } else if (v >= level) {
        increase += v - level;
        level = v;
      } else if (suffixMax[i + 1] >= level) {
        glitches++;
        continue;
      } else {
        increase += v;
        level = v;
        resets++;
      }
      last = window.timestamp(i);
    }
    if (samples == 0) {
      return NONE;
    }
    return new CounterRate(increase, (last - first) / 1000.0, resets, glitches, samples);
  }

  /** Returns true if every sample of the window is usable and the same: most error counters. */
  private static boolean isFlat(SampleWindow window) {
    double first = window.value(0);
    if (!usable(first)) {
      return false;
    }
    for (int i = 1; i < window.size(); i++) {
      if (window.value(i) != first) {
        return false;
      }
    }
    return true;
  }

  /**
   * Measures a flat window in one pass, as the general case would: no rise, the level set by the
   * last sample before {@code countFromMillis} if there is one.
   */
  private static CounterRate flat(SampleWindow window, long countFromMillis) {
    long first = 0;
    long last = 0;
    int samples = 0;
    boolean levelSet = false;
    for (int i = 0; i < window.size(); i++) {
      long t = window.timestamp(i);
      if (t < countFromMillis) {
        first = t;
        levelSet = true;
        continue;
      }
      samples++;
      if (samples == 1 && !levelSet) {
        first = t;
      }
      last = t;
    }
    return samples == 0 ? NONE : new CounterRate(0, (last - first) / 1000.0, 0, 0, samples);
  }

  /** Returns true if the window spans at least {@code seconds}, so a rate means something. */
  boolean spans(double seconds) {
    return samples >= 2 && elapsedSeconds >= seconds;
  }

  /** Returns the rise per second, or 0 when the window spans no time. */
  double perSecond() {
    return elapsedSeconds > 0 ? increase / elapsedSeconds : 0;
  }

  /** Returns the rise per minute, or 0 when the window spans no time. */
  double perMinute() {
    return perSecond() * 60;
  }

  /** Describes the counter's behaviour for the evidence: "12 over 58 s, 1 reset, 0 glitches". */
  String describe() {
    return Evidence.number(increase)
        + " over "
        + Evidence.number(elapsedSeconds)
        + " s ("
        + resets
        + " reset(s), "
        + glitches
        + " glitch sample(s) skipped)";
  }

  private static boolean usable(double v) {
    return Double.isFinite(v) && v >= 0;
  }
}
