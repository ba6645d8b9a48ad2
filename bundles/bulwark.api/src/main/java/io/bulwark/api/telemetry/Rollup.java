package io.bulwark.api.telemetry;

/**
 * The roll-up of one series over one span of time: the smallest, mean and largest value of the
 * samples taken in it, and how many there were. Returned by {@link TelemetryQuery#history} for
 * charts over days: one-minute spans for the minutes telemetry keeps in memory, ten-minute spans
 * for the hours it has archived. Values come from {@code float} roll-ups, so they carry about seven
 * significant digits.
 *
 * @param startMillis the start of the span (epoch milliseconds)
 * @param spanMillis the length of the span (positive)
 * @param count how many samples the span holds (at least one)
 * @since 2.1
 */
public record Rollup(
    long startMillis, long spanMillis, double min, double avg, double max, long count) {

  /**
   * @throws IllegalArgumentException if the span is not positive or the count below one
   */
  public Rollup {
    if (spanMillis <= 0) {
      throw new IllegalArgumentException("a roll-up spans a positive time, not " + spanMillis);
    }
    if (count < 1) {
      throw new IllegalArgumentException("a roll-up holds at least one sample, not " + count);
    }
  }

  /** Returns the end of the span (exclusive, epoch milliseconds). */
  public long endMillis() {
    return startMillis + spanMillis;
  }

  /** Returns the one-minute roll-up as a {@code Rollup}. */
  public static Rollup of(MinuteRollup minute) {
    return new Rollup(
        minute.minuteMillis(), 60_000, minute.min(), minute.avg(), minute.max(), minute.count());
  }
}
