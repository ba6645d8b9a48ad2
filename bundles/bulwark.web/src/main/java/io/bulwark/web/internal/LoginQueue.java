package io.bulwark.web.internal;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;

/**
 * Runs at most a few password checks at once, those of clients that have not failed first: a check
 * waits in the queue of its client's {@link Standing}, and starts only while no check of a client
 * standing better waits or runs, so that a flood's checks pause while the administrator's runs (a
 * check already running goes on: PBKDF2 cannot be interrupted). Failing clients get all but one of
 * the places, so that a client that has not failed finds one free, or waits for at most one check,
 * never for a failing one. At most {@code maxFailingWaiting} checks of failing clients wait (the
 * caller refuses the rest); a known or clean client's check is never refused here: connection
 * limits and the per-address budget of {@link LoginGate} bound how many can wait. Used by {@link
 * LoginGate}; thread-safe.
 */
final class LoginQueue {
  private static final Logger LOG = System.getLogger(LoginQueue.class.getName());

  /** Where a client stands, best first. */
  enum Standing {
    /** The console, or an address that logged in before, with no wrong password since. */
    KNOWN,
    /** An address that has not logged in before, with no recent wrong password. */
    CLEAN,
    /** An address with a recent refused login, or a new address naming a user with one. */
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

  private final int places;
  private final int placesForFailing;
  private final int maxFailingWaiting;
  private final Map<Standing, Queue<Once>> waiting = new EnumMap<>(Standing.class);
  private final int[] runningBy = new int[Standing.values().length];
  private int running;
  private int failingRunning;

  /**
   * @param places how many checks run at once (the threads that run them)
   * @param maxFailingWaiting how many failing clients' checks may wait
   */
  LoginQueue(int places, int maxFailingWaiting) {
    if (places < 1 || maxFailingWaiting < 0) {
      throw new IllegalArgumentException(
          "places must be at least 1 and maxFailingWaiting not negative, not "
              + places
              + " and "
              + maxFailingWaiting);
    }
    this.places = places;
    this.placesForFailing = Math.max(1, places - 1);
    this.maxFailingWaiting = maxFailingWaiting;
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

  /** Starts, outside the lock, every check that may start now. */
  private void startWhatMay() {
    for (Once next : takeWhatMayStart()) {
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
        if (s == Standing.FAILING) {
          failingRunning++;
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
    return standing != Standing.FAILING || failingRunning < placesForFailing;
  }

  private synchronized void ended(Standing standing) {
    running--;
    runningBy[standing.ordinal()]--;
    if (standing == Standing.FAILING) {
      failingRunning--;
    }
  }

  /** A queued check and its place: gives the place back once, however often it is called. */
  private final class Once implements Runnable {
    final Standing standing;
    final Check check;
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
      ended(standing);
      startWhatMay();
    }
  }
}
