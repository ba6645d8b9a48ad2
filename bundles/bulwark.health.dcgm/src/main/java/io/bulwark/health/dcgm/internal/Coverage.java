package io.bulwark.health.dcgm.internal;

import io.bulwark.api.telemetry.SampleWindow;

/**
 * How much time samples cover, so that a detector's "enough data" and "sustained" do not depend on
 * the scrape interval: {@code n} samples of a window cover {@code n} times the window's mean
 * spacing (five samples a second apart cover 5 s, as do two samples 2.5 s apart). A window of fewer
 * than two samples has no spacing and covers nothing.
 */
final class Coverage {
  private Coverage() {}

  /** Returns the mean spacing of the window's samples in seconds, or NaN for fewer than two. */
  static double spacingSeconds(SampleWindow window) {
    int n = window.size();
    if (n < 2) {
      return Double.NaN;
    }
    return (window.timestamp(n - 1) - window.timestamp(0)) / 1000.0 / (n - 1);
  }

  /**
   * Returns the seconds {@code samples} of the window's samples cover; 0 if the window has fewer
   * than two samples.
   */
  static double seconds(int samples, SampleWindow window) {
    double spacing = spacingSeconds(window);
    return Double.isNaN(spacing) ? 0 : samples * spacing;
  }

  /** Returns true if {@code samples} of the window's samples cover at least {@code minSeconds}. */
  static boolean covers(int samples, SampleWindow window, int minSeconds) {
    return samples >= 2 && seconds(samples, window) >= minSeconds - 1e-9;
  }
}
