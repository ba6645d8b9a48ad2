package io.bulwark.findings.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The operator's work on one finding: who acknowledged it and when, who it is assigned to, until
 * when it is snoozed and by whom, and every step taken (acknowledged, assigned, commented, snoozed,
 * woken), oldest first. Stored in the {@code findings.notes} map under the finding's id.
 *
 * @param steps at most {@link #MAX_STEPS}: the oldest go first
 */
record Note(
    String findingId,
    String acknowledgedBy,
    Instant acknowledgedAt,
    String assignee,
    Instant snoozedUntil,
    String snoozedBy,
    List<Step> steps) {
  static final int MAX_STEPS = 500;

  /** One thing done to the finding: {@code acknowledged}, {@code assigned}, {@code comment}… */
  record Step(Instant at, String event, String by, String text) {
    Step {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(event, "event");
      Objects.requireNonNull(by, "by");
      text = Objects.requireNonNullElse(text, "");
    }
  }

  Note {
    Objects.requireNonNull(findingId, "findingId");
    steps = List.copyOf(steps);
  }

  static Note empty(String findingId) {
    return new Note(findingId, null, null, null, null, null, List.of());
  }

  /** Returns this note with {@code step} added (the oldest dropped past the bound). */
  Note with(Step step) {
    List<Step> more = new ArrayList<>(steps);
    more.add(step);
    while (more.size() > MAX_STEPS) {
      more.remove(0);
    }
    return new Note(
        findingId, acknowledgedBy, acknowledgedAt, assignee, snoozedUntil, snoozedBy, more);
  }

  Note acknowledged(String by, Instant at) {
    return new Note(findingId, by, at, assignee, snoozedUntil, snoozedBy, steps);
  }

  Note assigned(String to) {
    return new Note(findingId, acknowledgedBy, acknowledgedAt, to, snoozedUntil, snoozedBy, steps);
  }

  Note snoozed(Instant until, String by) {
    return new Note(findingId, acknowledgedBy, acknowledgedAt, assignee, until, by, steps);
  }

  /** Returns true if the finding is snoozed at {@code at}. */
  boolean snoozedAt(Instant at) {
    return snoozedUntil != null && at.isBefore(snoozedUntil);
  }

  /** Returns the comments, oldest first. */
  List<Step> comments() {
    return steps.stream().filter(s -> s.event().equals("comment")).toList();
  }
}
