package io.bulwark.health.scenarios;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingRepository;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The finding store of one replay, in memory: stands in for the store bundle behind the health
 * engine. Not shared between replays.
 */
final class FindingsInMemory implements FindingRepository {
  private final Map<String, Finding> byId = new LinkedHashMap<>();

  @Override
  public synchronized void save(Finding finding) {
    byId.put(finding.id(), finding);
  }

  @Override
  public synchronized Optional<Finding> get(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  @Override
  public synchronized List<Finding> find(FindingQuery query) {
    return byId.values().stream()
        .filter(query::matches)
        .sorted(Comparator.comparing(Finding::lastSeen).reversed())
        .limit(query.limit())
        .toList();
  }
}
