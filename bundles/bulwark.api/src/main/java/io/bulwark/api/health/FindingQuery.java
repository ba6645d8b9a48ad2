package io.bulwark.api.health;

import io.bulwark.api.fleet.NodeId;
import java.util.Optional;

/**
 * Selects findings: by state, kind and node; an empty part matches all. {@link #limit} caps the
 * number returned, newest first.
 */
public record FindingQuery(
    Optional<FindingState> state, Optional<String> kind, Optional<NodeId> node, int limit) {
  public static final int DEFAULT_LIMIT = 1000;

  public FindingQuery {
    state = state == null ? Optional.empty() : state;
    kind = kind == null ? Optional.empty() : kind;
    node = node == null ? Optional.empty() : node;
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: " + limit);
    }
  }

  /** Returns a query that matches every finding, up to the default limit. */
  public static FindingQuery all() {
    return new FindingQuery(Optional.empty(), Optional.empty(), Optional.empty(), DEFAULT_LIMIT);
  }

  /** Returns a query for the open findings. */
  public static FindingQuery open() {
    return all().withState(FindingState.OPEN);
  }

  public FindingQuery withState(FindingState s) {
    return new FindingQuery(Optional.of(s), kind, node, limit);
  }

  public FindingQuery withKind(String k) {
    return new FindingQuery(state, Optional.of(k), node, limit);
  }

  public FindingQuery withNode(NodeId n) {
    return new FindingQuery(state, kind, Optional.of(n), limit);
  }

  public FindingQuery withLimit(int l) {
    return new FindingQuery(state, kind, node, l);
  }

  /** Returns true if {@code f} matches this query (ignoring the limit). */
  public boolean matches(Finding f) {
    return state.map(s -> s == f.state()).orElse(true)
        && kind.map(k -> k.equals(f.kind())).orElse(true)
        && node.map(n -> n.equals(f.node())).orElse(true);
  }
}
