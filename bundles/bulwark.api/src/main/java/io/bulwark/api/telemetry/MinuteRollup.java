package io.bulwark.api.telemetry;

/**
 * The roll-up of one series over one whole minute: the smallest, mean and largest value of the
 * samples taken in it, and how many there were. Returned by {@link TelemetryQuery#rollup} for
 * charts and reports over the hours beyond the raw sample window. Values are kept as {@code float},
 * so they carry about seven significant digits.
 *
 * @param minuteMillis the start of the minute (epoch milliseconds, a multiple of 60,000)
 * @param count how many samples the minute holds (at least one; timestamps are whole milliseconds,
 *     so at most 60,000)
 * @since 1.4
 */
public record MinuteRollup(long minuteMillis, double min, double avg, double max, int count) {}
