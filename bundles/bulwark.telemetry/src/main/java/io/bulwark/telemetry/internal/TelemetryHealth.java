package io.bulwark.telemetry.internal;

import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import io.bulwark.api.telemetry.TargetStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Telemetry's report of itself as the {@code telemetry} subsystem: DOWN when nothing can be seen
 * (no target answers, scraping has stopped, or the targets file is broken with no target left),
 * DEGRADED when telemetry itself sees less than it should (samples dropped for a limit, the series
 * budget spent, no target listed, load shed by stretching the scrape interval for {@link
 * #SHEDDING_GRACE_MILLIS} or longer, or half the targets or more down at once, which points at the
 * appliance's network rather than at the nodes), UP otherwise; with what to do and the gauges
 * behind it. A few targets down are the nodes' problem, reported as their own findings
 * (telemetry-stale), and counted here. Thread-safe.
 */
final class TelemetryHealth {
  static final String SUBSYSTEM = "telemetry";

  private final TelemetryOptions options;
  private final Clock clock;
  private SubsystemState state = SubsystemState.UP;
  private Instant since;

  TelemetryHealth(TelemetryOptions options, Clock clock) {
    this.options = options;
    this.clock = clock;
    this.since = clock.instant();
  }

  /** Returns the report for these target statuses and store figures. */
  synchronized SubsystemStatus status(
      List<TargetStatus> targets,
      String fileProblem,
      SeriesBudget budget,
      int nodes,
      long droppedForLimits,
      ScrapePacer.Report pacing) {
    Instant now = clock.instant();
    int down = 0;
    int limited = 0;
    TargetStatus firstDown = null;
    TargetStatus firstLimited = null;
    Instant newest = null;
    for (TargetStatus t : targets) {
      if (t.health() == TargetStatus.Health.DOWN) {
        down++;
        firstDown = firstDown == null ? t : firstDown;
      } else if (t.health() == TargetStatus.Health.UP && !t.lastError().isEmpty()) {
        limited++;
        firstLimited = firstLimited == null ? t : firstLimited;
      }
      if (t.lastScrape() != null && (newest == null || t.lastScrape().isAfter(newest))) {
        newest = t.lastScrape();
      }
    }
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("bulwark_telemetry_targets", (double) targets.size());
    m.put("bulwark_telemetry_targets_down", (double) down);
    m.put("bulwark_telemetry_targets_limited", (double) limited);
    m.put("bulwark_telemetry_series", (double) budget.used());
    m.put("bulwark_telemetry_series_limit", (double) budget.limit());
    m.put("bulwark_telemetry_nodes", (double) nodes);
    m.put("bulwark_telemetry_samples_dropped", (double) droppedForLimits);
    m.put("bulwark_telemetry_scrape_interval_seconds", pacing.intervalMillis() / 1000.0);
    m.put(
        "bulwark_telemetry_scrape_interval_configured_seconds",
        pacing.configuredIntervalMillis() / 1000.0);
    m.put("bulwark_telemetry_load_shedding", pacing.shedding() ? 1.0 : 0.0);
    m.put("bulwark_telemetry_scrapes_missed_ratio", pacing.lastRound().missedShare());
    if (!Double.isNaN(pacing.lastRound().cpuBusy())) {
      m.put("bulwark_telemetry_cpu_busy_ratio", pacing.lastRound().cpuBusy());
    }
    m.put("bulwark_telemetry_overloaded_rounds_total", (double) pacing.overloadedRounds());

    long stalledAfter = Math.max(30_000, 10 * options.scrapeIntervalMillis());
    SubsystemState next;
    String summary;
    String action;
    if (!fileProblem.isEmpty() && targets.isEmpty()) {
      next = SubsystemState.DOWN;
      summary = "no GPU is watched: the targets file cannot be used: " + fileProblem;
      action =
          "Fix the file_sd file "
              + options.fileSd()
              + " (see the telemetry targets on the System page)";
    } else if (targets.isEmpty()) {
      next = SubsystemState.DEGRADED;
      summary = "no scrape target is listed: no GPU is watched";
      action =
          "List the dcgm-exporters (or Bulwark node agents) in the file_sd file "
              + options.fileSd();
    } else if (newest != null && now.toEpochMilli() - newest.toEpochMilli() > stalledAfter) {
      next = SubsystemState.DOWN;
      summary =
          "scraping has stopped: no target was scraped for "
              + (now.toEpochMilli() - newest.toEpochMilli()) / 1000
              + " s";
      action =
          "Check the log for the telemetry bundle's errors; restart the bundle or the appliance";
    } else if (down == targets.size()) {
      next = SubsystemState.DOWN;
      summary =
          "none of the "
              + targets.size()
              + " target(s) answers; e.g. "
              + firstDown.target().url()
              + ": "
              + firstDown.lastError();
      action =
          "Check the network to the exporters and that they run (see the telemetry targets on the System page)";
    } else if (budget.used() >= budget.limit()) {
      next = SubsystemState.DEGRADED;
      summary =
          String.format(
              Locale.ROOT,
              "telemetry holds %,d series, all this heap allows: samples of new series are dropped",
              budget.used());
      action =
          "Remove nodes you no longer have (Fleet page), fix exporters that invent series, or raise"
              + " the heap (-Xmx) or maxSeries (PID io.bulwark.telemetry)";
    } else if (pacing.shedding()
        && now.toEpochMilli() - pacing.sheddingSinceMillis() >= SHEDDING_GRACE_MILLIS) {
      next = SubsystemState.DEGRADED;
      summary = sheddingSummary(pacing);
      action = SHEDDING_ACTION;
    } else if (2 * down >= targets.size() || limited > 0) {
      next = SubsystemState.DEGRADED;
      TargetStatus example = limited > 0 ? firstLimited : firstDown;
      summary =
          String.format(
              Locale.ROOT,
              "%d of %d target(s) down and %d over their limits: part of the fleet is not seen;"
                  + " e.g. %s: %s",
              down,
              targets.size(),
              limited,
              example.target().url(),
              example.lastError());
      action = "See each target's error under Telemetry targets on the System page";
    } else {
      next = SubsystemState.UP;
      summary =
          String.format(
              Locale.ROOT,
              "%d of %d target(s) scraped; %,d series of at most %,d",
              targets.size() - down,
              targets.size(),
              budget.used(),
              budget.limit());
      action = "";
    }
    if (pacing.shedding() && !summary.startsWith("shedding load")) {
      // Another reason leads; shedding is said too, so that the interval in effect is explained.
      summary += "; and " + sheddingSummary(pacing);
      action = action.isEmpty() ? SHEDDING_ACTION : action + ". " + SHEDDING_ACTION;
    }
    if (next != state) {
      state = next;
      since = now;
    }
    return new SubsystemStatus(SUBSYSTEM, next, summary, action, since, m);
  }

  /**
   * How long load shedding lasts before telemetry is DEGRADED for it (and the appliance finding
   * opens): a few seconds of stretched interval at start-up or in a burst is said in the summary
   * and in /metrics, not alerted.
   */
  static final long SHEDDING_GRACE_MILLIS = 30_000;

  private static final String SHEDDING_ACTION =
      "Find what else takes the appliance's CPUs (a backup, an update's verification, another"
          + " service) or give it a smaller fleet; telemetry returns to the scrape interval by"
          + " itself once there is room";

  private static String sheddingSummary(ScrapePacer.Report pacing) {
    return String.format(
        Locale.ROOT,
        "shedding load: every target is scraped every %.1f s instead of %.1f s, because the"
            + " appliance could not keep up (%s); detectors evaluate at the same pace",
        pacing.intervalMillis() / 1000.0,
        pacing.configuredIntervalMillis() / 1000.0,
        pacing.lastOverloaded().describe());
  }
}
