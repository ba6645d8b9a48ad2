package io.bulwark.notify.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.Severity;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Which findings a channel carries: at least {@code minSeverity}, of the listed kinds (all when
 * empty), on nodes whose scrape-target labels have every listed value (any node when empty); and
 * whether it is told when they resolve.
 *
 * @param labels label name to the values accepted ({@code rack=a1|a2} accepts either)
 */
record Route(
    Severity minSeverity,
    Set<String> kinds,
    Map<String, Set<String>> labels,
    boolean sendResolved) {

  Route {
    Objects.requireNonNull(minSeverity, "minSeverity");
    kinds = Set.copyOf(kinds);
    labels = Map.copyOf(labels);
    labels.values().forEach(Objects::requireNonNull);
  }

  /** Returns true if a finding like {@code f} on a node with {@code nodeLabels} goes out here. */
  boolean matches(Finding f, Map<String, String> nodeLabels) {
    if (f.severity().compareTo(minSeverity) < 0) {
      return false;
    }
    if (!kinds.isEmpty() && !kinds.contains(f.kind())) {
      return false;
    }
    for (Map.Entry<String, Set<String>> e : labels.entrySet()) {
      String value = nodeLabels.get(e.getKey());
      if (value == null || !e.getValue().contains(value)) {
        return false;
      }
    }
    return true;
  }
}
