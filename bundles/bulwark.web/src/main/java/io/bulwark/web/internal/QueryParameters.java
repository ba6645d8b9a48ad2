package io.bulwark.web.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.FindingState;
import io.bulwark.web.api.ApiProblem;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads and checks the query and path parameters of the API. A value the API cannot use is refused
 * with an {@link ApiProblem} (400) that names the parameter and says what would be accepted;
 * nothing is guessed.
 */
final class QueryParameters {
  private static final int MAX_VALUE_LENGTH = 256;

  private QueryParameters() {}

  /** Returns the single value of a query parameter, or empty if it is absent or empty. */
  static Optional<String> single(RoutingContext ctx, String name) {
    List<String> values = ctx.queryParam(name);
    if (values.isEmpty()) {
      return Optional.empty();
    }
    if (values.size() > 1) {
      throw ApiProblem.invalidParameter(
          name, "'" + name + "' is given " + values.size() + " times; give it once.");
    }
    String value = values.get(0).strip();
    if (value.length() > MAX_VALUE_LENGTH) {
      throw ApiProblem.invalidParameter(
          name, "'" + name + "' is longer than " + MAX_VALUE_LENGTH + " characters.");
    }
    return value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  /** Returns an integer query parameter within [min, max], or the default when it is absent. */
  static int integer(RoutingContext ctx, String name, int defaultValue, int min, int max) {
    Optional<String> value = single(ctx, name);
    if (value.isEmpty()) {
      return defaultValue;
    }
    int parsed;
    try {
      parsed = Integer.parseInt(value.get());
    } catch (NumberFormatException e) {
      throw ApiProblem.invalidParameter(
          name,
          "'"
              + name
              + "' must be a whole number from "
              + min
              + " to "
              + max
              + ", not '"
              + value.get()
              + "'.");
    }
    if (parsed < min || parsed > max) {
      throw ApiProblem.invalidParameter(
          name, "'" + name + "' must be from " + min + " to " + max + ", not " + parsed + ".");
    }
    return parsed;
  }

  /**
   * Returns the finding state asked for ({@code open} or {@code resolved}), or empty for every
   * state.
   */
  static Optional<FindingState> findingState(RoutingContext ctx, String name) {
    Optional<String> value = single(ctx, name);
    if (value.isEmpty() || value.get().equalsIgnoreCase("all")) {
      return Optional.empty();
    }
    for (FindingState state : FindingState.values()) {
      if (state.name().equalsIgnoreCase(value.get())) {
        return Optional.of(state);
      }
    }
    throw ApiProblem.invalidParameter(
        name, "'" + name + "' must be open, resolved or all, not '" + value.get() + "'.");
  }

  /** Returns the finding kind asked for, or empty for every kind. */
  static Optional<String> findingKind(RoutingContext ctx, String name) {
    Optional<String> value = single(ctx, name).map(v -> v.toLowerCase(Locale.ROOT));
    if (value.isPresent() && !FindingKind.isValid(value.get())) {
      throw ApiProblem.invalidParameter(
          name,
          "'"
              + name
              + "' is not a finding kind: '"
              + value.get()
              + "' (lower-case words joined by '-', e.g. thermal-throttle).");
    }
    return value;
  }

  /** Returns the node named by a query parameter, or empty for every node. */
  static Optional<NodeId> node(RoutingContext ctx, String name) {
    return single(ctx, name).map(value -> nodeId(name, value));
  }

  /** Returns the node named by a path parameter. */
  static NodeId pathNode(RoutingContext ctx, String name) {
    String value = ctx.pathParam(name);
    return nodeId(name, value == null ? "" : value);
  }

  private static NodeId nodeId(String name, String value) {
    if (!NodeId.isValid(value)) {
      String shown = value.length() > 64 ? value.substring(0, 64) + "…" : value;
      throw ApiProblem.invalidParameter(
          name,
          "'"
              + shown
              + "' is not a node name (letters, digits, '.', '_', ':'"
              + " and '-' only, at most 253 characters).");
    }
    return NodeId.of(value);
  }
}
