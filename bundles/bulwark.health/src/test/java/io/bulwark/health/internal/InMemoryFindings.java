package io.bulwark.health.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingRepository;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Internal test double of the finding store for the engine tests: keeps findings in memory, counts
 * the writes and can be told to refuse writes or reads, as a full disk or a closed store would.
 */
final class InMemoryFindings implements FindingRepository {
  private final Map<String, Finding> byId = new LinkedHashMap<>();
  final List<Finding> saved = new ArrayList<>();
  boolean refuseWrites;
  boolean refuseReads;

  @Override
  public synchronized void save(Finding finding) {
    if (refuseWrites) {
      throw new IllegalStateException("disk full");
    }
    byId.put(finding.id(), finding);
    saved.add(finding);
  }

  @Override
  public synchronized Optional<Finding> get(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  @Override
  public synchronized List<Finding> find(FindingQuery query) {
    if (refuseReads) {
      throw new IllegalStateException("store closed");
    }
    return byId.values().stream()
        .filter(query::matches)
        .sorted(Comparator.comparing(Finding::lastSeen).reversed())
        .limit(query.limit())
        .toList();
  }

  synchronized List<Finding> all() {
    return List.copyOf(byId.values());
  }
}
