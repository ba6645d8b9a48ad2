package io.bulwark.web.internal;

import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.HealthService;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * In-memory health engine that stands in for the health bundle's HealthService in unit tests: holds
 * findings and a capacity account as given, and can be told to fail so that error handling can be
 * tested.
 */
final class InMemoryHealth implements HealthService {
  private final List<Finding> findings = new CopyOnWriteArrayList<>();
  private final List<String> detectors = new CopyOnWriteArrayList<>();
  private volatile CapacityReport capacity;
  private volatile RuntimeException failure;
  private final List<CapacityInterval> history = new CopyOnWriteArrayList<>();

  private volatile List<io.bulwark.api.health.NodeCoverage> coverage = List.of();

  void coverage(List<io.bulwark.api.health.NodeCoverage> nodes) {
    coverage = List.copyOf(nodes);
  }

  @Override
  public List<io.bulwark.api.health.NodeCoverage> coverage() {
    throwIfFailing();
    return coverage;
  }

  void history(CapacityInterval interval) {
    history.add(interval);
  }

  @Override
  public List<CapacityInterval> capacityHistory(java.time.Instant from) {
    throwIfFailing();
    return history.stream().filter(i -> !i.start().isBefore(from)).toList();
  }

  void add(Finding finding) {
    findings.removeIf(f -> f.id().equals(finding.id()));
    findings.add(finding);
  }

  void capacity(CapacityReport report) {
    capacity = report;
  }

  void detectors(List<String> names) {
    detectors.clear();
    detectors.addAll(names);
  }

  void failWith(RuntimeException e) {
    failure = e;
  }

  @Override
  public List<Finding> findings(FindingQuery query) {
    throwIfFailing();
    return findings.stream()
        .filter(query::matches)
        .sorted(Comparator.comparing(Finding::lastSeen).reversed())
        .limit(query.limit())
        .toList();
  }

  @Override
  public CapacityReport capacity() {
    throwIfFailing();
    return capacity;
  }

  @Override
  public List<String> detectors() {
    throwIfFailing();
    return List.copyOf(detectors);
  }

  private void throwIfFailing() {
    RuntimeException e = failure;
    if (e != null) {
      throw e;
    }
  }
}
