package io.bulwark.health.internal;

import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.CapacityLedger;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A capacity ledger kept in memory only, for an engine built without the store (tests, tools): the
 * account is lost when the engine goes.
 */
final class MemoryLedger implements CapacityLedger {
  private final ConcurrentSkipListMap<Instant, CapacityInterval> hours =
      new ConcurrentSkipListMap<>();

  @Override
  public void save(CapacityInterval interval) {
    hours.put(interval.start(), interval);
  }

  @Override
  public List<CapacityInterval> since(Instant from) {
    return List.copyOf(hours.tailMap(from, true).values());
  }
}
