package io.bulwark.health.internal;

import io.bulwark.api.health.CapacityInterval;
import io.bulwark.api.health.CapacityLedger;
import io.bulwark.api.health.CapacityReport;
import io.bulwark.api.health.GpuCapacity;
import io.bulwark.api.health.LossCause;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Books the capacity account over time: after each evaluation, the time since the previous one is
 * booked for every installed GPU as delivered (times its relative performance) or lost, by cause,
 * into the current hour; hours are saved in the {@link CapacityLedger} once a minute and when they
 * end. A gap longer than {@link #LONGEST_STEP_MILLIS} or three evaluation intervals (the appliance
 * was stopped) is not booked: what happened then is unknown. A step that crosses the hour is booked
 * in the hour it began. Used from the engine thread only, except {@link #history}.
 */
final class CapacityBook {
  static final long LONGEST_STEP_MILLIS = 60_000;
  static final long SAVE_EVERY_MILLIS = 60_000;
  private static final double MILLIS_PER_HOUR = 3_600_000.0;
  private static final System.Logger LOG = System.getLogger(CapacityBook.class.getName());

  private final CapacityLedger ledger;
  private final long longestStepMillis;
  private long lastMillis = -1;
  private long lastSavedMillis;
  private volatile Hour current;

  CapacityBook(CapacityLedger ledger) {
    this(ledger, 0);
  }

  /**
   * @param evaluationIntervalMillis how often the engine evaluates: a step of up to three intervals
   *     (and at least {@link #LONGEST_STEP_MILLIS}) is booked
   */
  CapacityBook(CapacityLedger ledger, long evaluationIntervalMillis) {
    this.ledger = ledger;
    this.longestStepMillis = Math.max(LONGEST_STEP_MILLIS, 3 * evaluationIntervalMillis);
  }

  /** Books the time since the previous report under the GPUs' state in {@code report}. */
  void book(CapacityReport report, long nowMillis) {
    long from = lastMillis;
    lastMillis = nowMillis;
    if (from < 0 || nowMillis <= from || nowMillis - from > longestStepMillis) {
      return;
    }
    Instant hourStart = Instant.ofEpochMilli(from).truncatedTo(ChronoUnit.HOURS);
    Hour hour = current;
    if (hour == null || !hour.start.equals(hourStart)) {
      if (hour != null) {
        save(hour);
      }
      hour = resumed(hourStart);
      current = hour;
    }
    hour.add(report.gpus(), nowMillis - from);
    if (nowMillis - lastSavedMillis >= SAVE_EVERY_MILLIS) {
      save(hour);
      lastSavedMillis = nowMillis;
    }
  }

  /** Returns the hours from {@code from} on, the current one as far as it has gone. */
  List<CapacityInterval> history(Instant from) {
    List<CapacityInterval> saved = new ArrayList<>(ledger.since(from));
    Hour hour = current;
    if (hour != null && !hour.start.isBefore(from)) {
      saved.removeIf(i -> i.start().equals(hour.start));
      saved.add(hour.interval());
    }
    return saved;
  }

  /** Saves the current hour, as the engine stops. */
  void flush() {
    Hour hour = current;
    if (hour != null) {
      save(hour);
    }
  }

  private Hour resumed(Instant start) {
    Hour hour = new Hour(start);
    try {
      for (CapacityInterval saved : ledger.since(start)) {
        if (saved.start().equals(start)) {
          hour.resume(saved);
        }
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Cannot read the capacity account of {0}: {1}", start, e.toString());
    }
    return hour;
  }

  private void save(Hour hour) {
    try {
      ledger.save(hour.interval());
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "Cannot save the capacity account of the hour from {0}: {1}. The figures of this hour"
              + " are kept in memory and saved again next minute.",
          hour.start,
          e.toString());
    }
  }

  /** One hour being booked. Synchronized: the web API reads it while the engine books. */
  private static final class Hour {
    final Instant start;
    private long observedMillis;
    private double installed;
    private double delivered;
    private final Map<LossCause, Double> lost = new EnumMap<>(LossCause.class);

    Hour(Instant start) {
      this.start = start;
    }

    synchronized void resume(CapacityInterval saved) {
      observedMillis = saved.observedMillis();
      installed = saved.gpuHoursInstalled();
      delivered = saved.gpuHoursDelivered();
      lost.putAll(saved.gpuHoursLost());
    }

    synchronized void add(List<GpuCapacity> gpus, long stepMillis) {
      double hours = stepMillis / MILLIS_PER_HOUR;
      observedMillis += stepMillis;
      for (GpuCapacity g : gpus) {
        installed += hours;
        double performance = g.healthy() ? g.relativePerformance() : 0.0;
        delivered += hours * performance;
        LossCause cause = g.lossCause();
        if (cause != null) {
          lost.merge(cause, hours * (1.0 - performance), Double::sum);
        }
      }
    }

    synchronized CapacityInterval interval() {
      return new CapacityInterval(
          start,
          start.plus(Duration.ofHours(1)),
          observedMillis,
          installed,
          delivered,
          new EnumMap<>(lost));
    }
  }
}
