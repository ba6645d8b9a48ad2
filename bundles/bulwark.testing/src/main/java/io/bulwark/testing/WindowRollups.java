package io.bulwark.testing;

import io.bulwark.api.telemetry.MinuteRollup;
import io.bulwark.api.telemetry.SampleWindow;
import java.util.ArrayList;
import java.util.List;

/**
 * The minute roll-ups of a window of samples, as telemetry computes them as samples arrive: per
 * whole minute the smallest, mean and largest value (as {@code float}, as telemetry keeps them) and
 * the count; closed minutes only, so the minute of the newest sample is left out. For the test
 * doubles of {@code TelemetryQuery}.
 */
public final class WindowRollups {
  private static final long MINUTE = 60_000;

  private WindowRollups() {}

  /** Returns the roll-ups of the window's closed minutes, oldest first. */
  public static List<MinuteRollup> closedMinutes(SampleWindow window) {
    List<MinuteRollup> out = new ArrayList<>();
    if (window.isEmpty()) {
      return out;
    }
    long open = Math.floorDiv(window.latestTimestamp(), MINUTE) * MINUTE;
    int i = 0;
    while (i < window.size()) {
      long minute = Math.floorDiv(window.timestamp(i), MINUTE) * MINUTE;
      if (minute >= open) {
        break;
      }
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      double sum = 0;
      int count = 0;
      while (i < window.size() && window.timestamp(i) < minute + MINUTE) {
        double v = window.value(i++);
        min = Math.min(min, v);
        max = Math.max(max, v);
        sum += v;
        count++;
      }
      out.add(new MinuteRollup(minute, (float) min, (float) (sum / count), (float) max, count));
    }
    return out;
  }
}
