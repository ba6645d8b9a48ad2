package io.bulwark.api.audit;

import java.time.Instant;
import java.util.Optional;

/**
 * Selects audit records by time (from inclusive, to exclusive), actor, action and outcome; empty
 * parts match all. Results are in sequence order, starting after {@code afterSequence} (0 for the
 * start), at most {@code limit}: page by passing the last sequence seen.
 */
public record AuditQuery(
    Optional<Instant> from,
    Optional<Instant> to,
    Optional<String> actor,
    Optional<String> action,
    Optional<AuditOutcome> outcome,
    long afterSequence,
    int limit) {

  public AuditQuery {
    from = from == null ? Optional.empty() : from;
    to = to == null ? Optional.empty() : to;
    actor = actor == null ? Optional.empty() : actor;
    action = action == null ? Optional.empty() : action;
    outcome = outcome == null ? Optional.empty() : outcome;
    if (afterSequence < 0) {
      throw new IllegalArgumentException("afterSequence must not be negative: " + afterSequence);
    }
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
  }

  /** Returns a query for the first {@code limit} records. */
  public static AuditQuery first(int limit) {
    return new AuditQuery(
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        0,
        limit);
  }

  /** Returns true if {@code r} matches (ignoring paging). */
  public boolean matches(AuditRecord r) {
    return from.map(f -> !r.at().isBefore(f)).orElse(true)
        && to.map(t -> r.at().isBefore(t)).orElse(true)
        && actor.map(a -> a.equals(r.event().actor())).orElse(true)
        && action.map(a -> a.equals(r.event().action())).orElse(true)
        && outcome.map(o -> o == r.event().outcome()).orElse(true);
  }
}
