package io.bulwark.telemetry.internal;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Sheds scrape load deliberately when the appliance cannot keep up with its fleet. Rather than
 * letting scrapes time out at random while something else takes the CPUs (a backup, an update's
 * verification, a noisy co-tenant) or the fleet outgrows the machine, telemetry stretches the
 * interval of every target evenly: each target is still scraped, only less often, and the interval
 * returns to the configured one by itself once there is room again. The scrape timeout stretches
 * with it. Used by {@link ScrapeLoop} (rounds and timer lateness) and {@link TargetScraper} (the
 * outcome of each scrape); read by {@link TelemetryHealth}.
 *
 * <p>A round is one pass over every target at the current interval. It is <em>overloaded</em> when
 * at least {@link #OVERLOADED_MISSES} of its scrapes, and {@link #MIN_MISSES} or more, were missed
 * (a target that answered its previous scrape, or has not been heard from yet, timed out; or a
 * scrape could not start because the previous one had not ended), or {@link #OVERLOADED_TIMEOUTS}
 * of them timed out whatever their targets did before (a start-up storm: half the fleet is not a
 * dead rack), while the appliance itself was the bottleneck: the machine's CPUs {@link #BUSY_CPU}
 * busy or more, or pages waiting for a parsing worker, or the scrape timer firing, a quarter of the
 * interval late. Targets that stay down do not count: a dead rack is not load. An overloaded round
 * stretches the interval by {@link #GROWTH}, up to the maximum. A round is <em>calm</em> when under
 * {@link #CALM_MISSES} were missed and nothing waited. After {@link #CALM_ROUNDS} calm rounds with
 * the CPUs under {@link #ROOMY_CPU} busy, the interval shrinks by {@link #SHRINK} towards the
 * configured one; with the CPUs still busy it shrinks by {@link #PROBE_SHRINK} only after a longer
 * run of calm rounds (a probe), and a probe that brings an overloaded round within {@link
 * #PROBE_SETTLE_ROUNDS} rounds doubles the wait before the next, so that a machine at its limit
 * settles instead of see-sawing.
 *
 * <p>Thread-safe: scrapes report from event loops and parsing workers, the loop's timer ends
 * rounds, and the status is read from any thread.
 */
final class ScrapePacer {
  private static final Logger LOG = Logger.getLogger(ScrapePacer.class.getName());

  /** The share of a round's scrapes missed that makes it overloaded (with the appliance busy). */
  static final double OVERLOADED_MISSES = 0.02;

  /**
   * The share of a round's scrapes that timed out, whatever their targets did before, that makes it
   * overloaded (with the appliance busy): half the fleet at once is not a dead rack.
   */
  static final double OVERLOADED_TIMEOUTS = 0.5;

  /**
   * The fewest scrapes missed (or timed out) in a round that can make it overloaded: in a small
   * fleet one late page is a hiccup (a pause at start-up), not load to shed.
   */
  static final int MIN_MISSES = 3;

  /** The share of a round's scrapes missed below which it is calm. */
  static final double CALM_MISSES = 0.005;

  /** The CPU busy share at which the machine counts as saturated. */
  static final double BUSY_CPU = 0.90;

  /** The CPU busy share under which the machine has room to scrape more often again. */
  static final double ROOMY_CPU = 0.80;

  /** How much an overloaded round stretches the interval. */
  static final double GROWTH = 1.25;

  /** How much a shrink with room on the CPUs takes off the stretch (divides it by). */
  static final double SHRINK = 1.25;

  /** How much a probe (a shrink with the CPUs still busy) takes off the stretch. */
  static final double PROBE_SHRINK = 1.1;

  /** Calm rounds with room on the CPUs before the interval shrinks. */
  static final int CALM_ROUNDS = 3;

  /** Calm rounds with the CPUs busy before the first probe of a shorter interval. */
  static final int FIRST_PROBE_ROUNDS = 10;

  /** The longest wait, in calm rounds, before a probe. */
  static final int MAX_PROBE_ROUNDS = 320;

  /** Rounds after a shrink in which an overloaded round counts as the probe's failure. */
  static final int PROBE_SETTLE_ROUNDS = 3;

  private final long baseIntervalMillis;
  private final long baseTimeoutMillis;
  private final double maxStretch;
  private final DoubleSupplier cpuBusy;
  private final LongSupplier clock;

  private final LongAdder started = new LongAdder();
  private final LongAdder missed = new LongAdder();
  private final LongAdder timedOut = new LongAdder();
  private final AtomicLong longestWaitMillis = new AtomicLong();
  private final AtomicLong longestLateMillis = new AtomicLong();

  private volatile double stretch = 1.0;
  private volatile Round lastRound = Round.NONE;
  private volatile Round lastOverloaded = Round.NONE;
  private volatile long sheddingSinceMillis = -1;
  private int calmRounds;
  private int probeRounds = FIRST_PROBE_ROUNDS;
  private int roundsSinceShrink = Integer.MAX_VALUE;
  private long rounds;
  private long overloadedRounds;

  /**
   * @param baseIntervalMillis the configured scrape interval
   * @param baseTimeoutMillis the configured scrape timeout
   * @param maxIntervalMillis the longest interval load shedding may stretch to; equal to the
   *     configured interval, shedding is off
   * @param cpuBusy the busy share (0 to 1) of the machine's CPUs since it was last called, or NaN
   *     if unknown
   * @param clock epoch milliseconds
   */
  ScrapePacer(
      long baseIntervalMillis,
      long baseTimeoutMillis,
      long maxIntervalMillis,
      DoubleSupplier cpuBusy,
      LongSupplier clock) {
    if (maxIntervalMillis < baseIntervalMillis) {
      throw new IllegalArgumentException(
          "the longest stretched interval ("
              + maxIntervalMillis
              + " ms) is shorter than the scrape interval ("
              + baseIntervalMillis
              + " ms)");
    }
    this.baseIntervalMillis = baseIntervalMillis;
    this.baseTimeoutMillis = baseTimeoutMillis;
    this.maxStretch = (double) maxIntervalMillis / baseIntervalMillis;
    this.cpuBusy = cpuBusy;
    this.clock = clock;
  }

  /** Counts a scrape due: started, or found still running from the previous round. */
  void started() {
    started.increment();
  }

  /**
   * Counts a missed scrape: a target that answered its previous scrape timed out, or a scrape could
   * not start because the previous one of its target had not ended.
   */
  void missed() {
    missed.increment();
  }

  /**
   * Counts a scrape that timed out; {@code missed} if its target had answered its previous scrape
   * or has not been heard from yet (a target that stays down is not load).
   */
  void timedOut(boolean missed) {
    timedOut.increment();
    if (missed) {
      this.missed.increment();
    }
  }

  /** Notes that a page waited {@code millis} for a parsing worker. */
  void waited(long millis) {
    longestWaitMillis.accumulateAndGet(millis, Math::max);
  }

  /** Notes that the scrape timer fired {@code millis} later than due. */
  void late(long millis) {
    longestLateMillis.accumulateAndGet(millis, Math::max);
  }

  /** Returns how many times the configured interval the targets are scraped at now (1 or more). */
  double stretch() {
    return stretch;
  }

  /** Returns the scrape interval in effect, in milliseconds. */
  long intervalMillis() {
    return Math.round(baseIntervalMillis * stretch);
  }

  /** Returns the scrape timeout in effect, in milliseconds. */
  long timeoutMillis() {
    return Math.round(baseTimeoutMillis * stretch);
  }

  /**
   * Ends a round: weighs what its scrapes reported and sets the interval of the next. Called by the
   * scrape loop's timer once every target's slot has come round.
   */
  synchronized void endRound() {
    long scrapes = started.sumThenReset();
    long misses = missed.sumThenReset();
    long timeouts = timedOut.sumThenReset();
    long waited = longestWaitMillis.getAndSet(0);
    long late = longestLateMillis.getAndSet(0);
    double cpu = cpuBusy.getAsDouble();
    long interval = intervalMillis();
    if (scrapes == 0) {
      return;
    }
    rounds++;
    double share = Math.min(1.0, (double) misses / scrapes);
    boolean behind = waited >= interval / 4 || late >= interval / 4;
    boolean saturated = cpu >= BUSY_CPU;
    boolean roomy = !(cpu >= ROOMY_CPU);
    Verdict verdict;
    boolean massTimeouts =
        timeouts >= MIN_MISSES && (double) timeouts / scrapes >= OVERLOADED_TIMEOUTS;
    boolean manyMissed = misses >= MIN_MISSES && share >= OVERLOADED_MISSES;
    if ((manyMissed || massTimeouts) && (saturated || behind)) {
      verdict = Verdict.OVERLOADED;
      overloadedRounds++;
      if (roundsSinceShrink <= PROBE_SETTLE_ROUNDS) {
        probeRounds = Math.min(MAX_PROBE_ROUNDS, probeRounds * 2);
      }
      stretch = Math.min(maxStretch, stretch * GROWTH);
      calmRounds = 0;
    } else if (share < CALM_MISSES && !behind) {
      verdict = Verdict.CALM;
      calmRounds++;
      if (roomy) {
        probeRounds = FIRST_PROBE_ROUNDS;
      }
      if (stretch > 1.0 && calmRounds >= (roomy ? CALM_ROUNDS : probeRounds)) {
        double shrunk = stretch / (roomy ? SHRINK : PROBE_SHRINK);
        stretch = shrunk < 1.05 ? 1.0 : shrunk;
        calmRounds = 0;
        roundsSinceShrink = 0;
      }
    } else {
      verdict = Verdict.STRAINED;
      calmRounds = 0;
    }
    if (roundsSinceShrink != Integer.MAX_VALUE) {
      roundsSinceShrink++;
    }
    long now = clock.getAsLong();
    lastRound = new Round(verdict, scrapes, misses, share, cpu, waited, late, now);
    if (stretch > 1.0 && sheddingSinceMillis < 0) {
      sheddingSinceMillis = now;
      LOG.log(
          Level.WARNING,
          String.format(
              Locale.ROOT,
              "Telemetry is shedding load: every target is now scraped every %.1f s instead of"
                  + " %.1f s, because the appliance could not keep up (%s). Find what else takes"
                  + " its CPUs or give it a smaller fleet; the interval returns by itself.",
              intervalMillis() / 1000.0,
              baseIntervalMillis / 1000.0,
              lastRound.describe()));
    } else if (stretch == 1.0 && sheddingSinceMillis >= 0) {
      LOG.log(
          Level.INFO,
          String.format(
              Locale.ROOT,
              "Telemetry scrapes every target every %.1f s again, after shedding load for %d s",
              baseIntervalMillis / 1000.0,
              (now - sheddingSinceMillis) / 1000));
      sheddingSinceMillis = -1;
    }
    if (verdict == Verdict.OVERLOADED) {
      lastOverloaded = lastRound;
    }
  }

  /** Returns what load shedding is doing now, for the telemetry subsystem's report. */
  Report report() {
    return new Report(
        stretch,
        baseIntervalMillis,
        intervalMillis(),
        sheddingSinceMillis,
        lastRound,
        lastOverloaded,
        rounds(),
        overloadedRounds());
  }

  private synchronized long rounds() {
    return rounds;
  }

  private synchronized long overloadedRounds() {
    return overloadedRounds;
  }

  /** How a round went. */
  enum Verdict {
    NONE,
    CALM,
    STRAINED,
    OVERLOADED
  }

  /**
   * One round's evidence.
   *
   * @param scrapes the scrapes due in the round
   * @param missed those missed
   * @param missedShare missed / scrapes
   * @param cpuBusy the machine's CPU busy share over the round, NaN if unknown
   * @param longestWaitMillis the longest a page waited for a parsing worker
   * @param longestLateMillis how late the scrape timer fired at worst
   * @param endedMillis when the round ended (epoch milliseconds)
   */
  record Round(
      Verdict verdict,
      long scrapes,
      long missed,
      double missedShare,
      double cpuBusy,
      long longestWaitMillis,
      long longestLateMillis,
      long endedMillis) {
    static final Round NONE = new Round(Verdict.NONE, 0, 0, 0, Double.NaN, 0, 0, 0);

    /** Says what made the round strained, in an operator's words. */
    String describe() {
      StringBuilder why = new StringBuilder();
      why.append(
          String.format(
              Locale.ROOT, "%d of %d scrapes missed (%.1f%%)", missed, scrapes, 100 * missedShare));
      if (!Double.isNaN(cpuBusy)) {
        why.append(String.format(Locale.ROOT, ", CPUs %.0f%% busy", 100 * cpuBusy));
      }
      if (longestWaitMillis > 0) {
        why.append(", pages waited up to ").append(longestWaitMillis).append(" ms to be parsed");
      }
      if (longestLateMillis > 0) {
        why.append(", the scrape timer ran up to ").append(longestLateMillis).append(" ms late");
      }
      return why.toString();
    }
  }

  /**
   * What load shedding is doing.
   *
   * @param stretch the interval in effect over the configured one
   * @param configuredIntervalMillis the configured interval
   * @param intervalMillis the interval in effect
   * @param sheddingSinceMillis since when the interval is stretched (epoch milliseconds), -1 if it
   *     is not
   * @param lastRound the latest round weighed
   * @param lastOverloaded the latest round found overloaded ({@link Round#NONE} if none)
   * @param rounds rounds weighed since start
   * @param overloadedRounds those found overloaded
   */
  record Report(
      double stretch,
      long configuredIntervalMillis,
      long intervalMillis,
      long sheddingSinceMillis,
      Round lastRound,
      Round lastOverloaded,
      long rounds,
      long overloadedRounds) {
    boolean shedding() {
      return stretch > 1.0;
    }
  }
}
