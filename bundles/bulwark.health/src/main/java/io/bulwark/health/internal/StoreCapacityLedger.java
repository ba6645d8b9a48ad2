package io.bulwark.health.internal;

import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.CapacityLedger;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.StoreMap;
import io.bulwark.api.store.WritePriority;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The hourly capacity account, in the store's map {@code capacity} keyed by the hour's start (epoch
 * milliseconds), kept for {@link #KEPT}: saving an hour drops those older than that in the same
 * transaction.
 */
@Component(service = CapacityLedger.class)
public final class StoreCapacityLedger implements CapacityLedger {
  /** How long the hourly capacity account is kept. */
  static final Duration KEPT = Duration.ofDays(400);

  static final StoreMap<Long, CapacityInterval> HOURS =
      StoreMap.byNumber("capacity", CapacityFormat.INSTANCE);

  private final RecordStore store;

  @Activate
  public StoreCapacityLedger(@Reference RecordStore store) {
    this.store = store;
  }

  @Override
  public void save(CapacityInterval interval) {
    long start = interval.start().toEpochMilli();
    store.write(
        "save the capacity account of " + interval.start(),
        WritePriority.ROUTINE,
        s -> {
          s.map(HOURS).put(start, interval);
          s.map(HOURS).removeBefore(start - KEPT.toMillis());
          return null;
        });
  }

  @Override
  public List<CapacityInterval> since(Instant from) {
    List<Map.Entry<Long, CapacityInterval>> hours =
        store.read(s -> s.map(HOURS).entriesFrom(from.toEpochMilli()));
    return hours.stream().map(Map.Entry::getValue).toList();
  }
}
