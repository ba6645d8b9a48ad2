package io.bulwark.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the end of a snooze or a maintenance window as an operator writes it, an ISO-8601 instant
 * ({@code 2026-03-01T18:00:00Z}, or with an offset) or a duration from now ({@code 30m}, {@code
 * 2h}, {@code 1d}, {@code 1w}, combined as {@code 1h30m}, or ISO-8601 {@code PT2H}); and shows
 * instants and durations in tables.
 */
final class Times {
  private static final Pattern PART = Pattern.compile("(\\d{1,9})([smhdw])");
  private static final Pattern SHORT = Pattern.compile("(\\d{1,9}[smhdw])+");

  private Times() {}

  /**
   * Returns the instant {@code value} names, relative durations counted from {@code now}.
   *
   * @param option what the value is, for the message (e.g. "--until")
   * @throws UsageException if it is neither an instant nor a duration, or is not in the future
   */
  static Instant until(String option, String value, Instant now) throws UsageException {
    String v = value.strip();
    Instant until;
    if (SHORT.matcher(v.toLowerCase(Locale.ROOT)).matches()) {
      until = now.plus(shortDuration(v.toLowerCase(Locale.ROOT)));
    } else if (v.length() > 1 && (v.charAt(0) == 'P' || v.charAt(0) == 'p')) {
      try {
        until = now.plus(Duration.parse(v));
      } catch (DateTimeParseException e) {
        throw notATime(option, value);
      }
    } else {
      until = instant(v).orElseThrow(() -> notATime(option, value));
    }
    if (!until.isAfter(now)) {
      throw new UsageException(option + " " + value + " is not in the future");
    }
    return until.truncatedTo(ChronoUnit.SECONDS);
  }

  private static Optional<Instant> instant(String v) {
    try {
      return Optional.of(Instant.parse(v));
    } catch (DateTimeParseException e) {
      try {
        return Optional.of(OffsetDateTime.parse(v).toInstant());
      } catch (DateTimeParseException e2) {
        return Optional.empty();
      }
    }
  }

  private static Duration shortDuration(String v) {
    Duration total = Duration.ZERO;
    Matcher m = PART.matcher(v);
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      total =
          total.plus(
              switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
              });
    }
    return total;
  }

  private static UsageException notATime(String option, String value) {
    return new UsageException(
        option
            + " must be an ISO-8601 instant (2026-03-01T18:00:00Z) or a duration from now"
            + " (30m, 2h, 1d, 1w, 1h30m), not '"
            + Text.clean(value)
            + "'");
  }

  /**
   * Returns an ISO-8601 instant from the API shortened to whole seconds ("2026-03-01T18:00:00Z"),
   * or the text as it is when it is not one.
   */
  static String shown(String iso) {
    if (iso == null || iso.isEmpty()) {
      return "";
    }
    try {
      return Instant.parse(iso).truncatedTo(ChronoUnit.SECONDS).toString();
    } catch (DateTimeParseException e) {
      return Text.clean(iso);
    }
  }

  /** Returns a length of time as "3d 4h", "2h 5m", "5m 3s" or "42s". */
  static String length(long seconds) {
    long d = seconds / 86_400;
    long h = seconds % 86_400 / 3600;
    long m = seconds % 3600 / 60;
    long s = seconds % 60;
    if (d > 0) {
      return d + "d " + h + "h";
    }
    if (h > 0) {
      return h + "h " + m + "m";
    }
    return m > 0 ? m + "m " + s + "s" : s + "s";
  }
}
