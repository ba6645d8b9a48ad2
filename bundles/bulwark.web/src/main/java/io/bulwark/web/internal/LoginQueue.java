package io.bulwark.web.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runs at most a few password checks at once, those of clients that have not failed first: a check
 * waits in the queue of its client's {@link Standing}, and starts only while no check of a client
 * standing better waits or runs, so that a flood's checks pause while the administrator's runs (a
 * check already running goes on: PBKDF2 cannot be interrupted). Clients that have not logged in
 * before (clean or failing) share all but one of the places, so that the console and the addresses
 * that logged in before find one free, or wait for at most one check; and a place that ran such a
 * check rests as long as the check took (at most {@value #MAX_REST_MILLIS} ms) before it takes
 * another, so that they get at most half of the cores they share and leave the rest of the CPU to
 * the console, the API and the appliance's own work. At most {@code maxFailingWaiting} checks of
 * failing clients wait (the caller refuses the rest); a known or clean client's check is never
 * refused here: connection limits and the per-address budget of {@link LoginGate} bound how many
 * can wait. Used by {@link LoginGate}; thread-safe.
 */
final class LoginQueue {
  private static final Logger LOG = System.getLogger(LoginQueue.class.getName());

  /** Where a client stands, best first. */
  enum Standing {
    /** The console, or an address that logged in before, with no wrong password since. */
    KNOWN,
    /** An address with no recent wrong password. */
    CLEAN,
    /** An address with a recent wrong password. */
    FAILING
  }

  /** A password check, started when it may run. */
  @FunctionalInterface
  interface Check {
    /**
     * Starts the check, which must call {@code done} once when it has ended, on whatever thread.
     * Called on the thread that submitted it or that ended another check; must not block, and
     * should not throw (a check that throws has ended).
     */
    void start(Runnable done);
  }

  /** The longest a place rests after a check of a client that has not logged in before. */
  static final long MAX_REST_MILLIS = 1000;

  /** Runs {@code then} once {@code nanos} nanoseconds have passed, on whatever thread. */
  @FunctionalInterface
  interface Timer {
    /** Must not block. */
    void after(long nanos, Runnable then);
  }

  private final int places;
  private final int placesForOthers;
  private final int maxFailingWaiting;
  private final Map<Standing, Queue<Once>> waiting = new EnumMap<>(Standing.class);
  private final int[] runningBy = new int[Standing.values().length];
  private final Timer timer;
  private final LongSupplier nanoTime;
  private int running;
  private int othersRunning;
  private int othersResting;

  /**
   * @param places how many checks run at once (the threads that run them)
   * @param maxFailingWaiting how many failing clients' checks may wait
   * @param timer ends the rests of the places
   * @param nanoTime the clock that times the checks ({@link System#nanoTime})
   */
  LoginQueue(int places, int maxFailingWaiting, Timer timer, LongSupplier nanoTime) {
    if (places < 1 || maxFailingWaiting < 0) {
      throw new IllegalArgumentException(
          "places must be at least 1 and maxFailingWaiting not negative, not "
              + places
              + " and "
              + maxFailingWaiting);
    }
    this.places = places;
    this.placesForOthers = Math.max(1, places - 1);
    this.maxFailingWaiting = maxFailingWaiting;
    this.timer = timer;
    this.nanoTime = nanoTime;
    for (Standing s : Standing.values()) {
      waiting.put(s, new ArrayDeque<>());
    }
  }

  /**
   * Queues {@code check} for a client of standing {@code standing}, and starts it if it may run
   * now. Returns false, and starts nothing, only for a failing client while {@code
   * maxFailingWaiting} checks of failing clients wait already.
   */
  boolean submit(Standing standing, Check check) {
    synchronized (this) {
      Queue<Once> queue = waiting.get(standing);
      if (standing == Standing.FAILING && queue.size() >= maxFailingWaiting) {
        return false;
      }
      queue.add(new Once(standing, check));
    }
    startWhatMay();
    return true;
  }

  /** Returns how many checks of clients of {@code standing} wait. */
  synchronized int waiting(Standing standing) {
    return waiting.get(standing).size();
  }

  /** Returns how many checks run. */
  synchronized int running() {
    return running;
  }

  /** Returns how many places rest after a check of a client that has not logged in before. */
  synchronized int resting() {
    return othersResting;
  }

  /** Starts, outside the lock, every check that may start now. */
  private void startWhatMay() {
    for (Once next : takeWhatMayStart()) {
      next.startedAt = nanoTime.getAsLong();
      try {
        next.check.start(next);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "A password check failed to start; its place is free again", e);
        next.run();
      }
    }
  }

  private synchronized List<Once> takeWhatMayStart() {
    List<Once> start = new ArrayList<>(2);
    for (Standing s : Standing.values()) {
      Queue<Once> queue = waiting.get(s);
      while (!queue.isEmpty() && running < places && mayStart(s)) {
        Once next = queue.poll();
        running++;
        runningBy[s.ordinal()]++;
        if (s != Standing.KNOWN) {
          othersRunning++;
        }
        start.add(next);
      }
      if (!queue.isEmpty() || runningBy[s.ordinal()] > 0) {
        // Those standing worse wait while a check of this standing waits or runs.
        break;
      }
    }
    return start;
  }

  private boolean mayStart(Standing standing) {
    return standing == Standing.KNOWN || othersRunning + othersResting < placesForOthers;
  }

  /** Frees the place of a check that ended; returns true if the place now rests. */
  private synchronized boolean free(Standing standing) {
    running--;
    runningBy[standing.ordinal()]--;
    if (standing == Standing.KNOWN) {
      return false;
    }
    othersRunning--;
    othersResting++;
    return true;
  }

  private void rested() {
    synchronized (this) {
      othersResting--;
    }
    startWhatMay();
  }

  /** A queued check and its place: gives the place back once, however often it is called. */
  private final class Once implements Runnable {
    final Standing standing;
    final Check check;
    volatile long startedAt;
    private boolean ended;

    Once(Standing standing, Check check) {
      this.standing = standing;
      this.check = check;
    }

    @Override
    public void run() {
      synchronized (this) {
        if (ended) {
          return;
        }
        ended = true;
      }
      if (free(standing)) {
        long took = Math.max(0, nanoTime.getAsLong() - startedAt);
        timer.after(
            Math.min(took, TimeUnit.MILLISECONDS.toNanos(MAX_REST_MILLIS)),
            LoginQueue.this::rested);
      }
      startWhatMay();
    }
  }
}
