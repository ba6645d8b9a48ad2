package io.bulwark.health.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingListener;
import io.bulwark.api.health.FindingRepository;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * Stores finding changes and then tells every finding listener. A change the store refuses is kept
 * and stored on the next evaluation (only its latest version), so nothing is lost while the store
 * is unavailable. Listeners join and leave from any thread; {@link #publish} runs on the engine
 * thread.
 */
final class FindingPublisher {
  private static final Logger LOG = System.getLogger(FindingPublisher.class.getName());

  private final FindingRepository repository;
  private final List<FindingListener> listeners = new CopyOnWriteArrayList<>();
  private final Map<String, Finding> unsaved = new LinkedHashMap<>();

  FindingPublisher(FindingRepository repository) {
    this.repository = repository;
  }

  /** Returns how many finding changes wait to be stored. Called on the engine thread. */
  int unsavedCount() {
    return unsaved.size();
  }

  void addListener(FindingListener listener) {
    listeners.add(listener);
  }

  void removeListener(FindingListener listener) {
    listeners.remove(listener);
  }

  /**
   * Logs, stores and announces the changes of one evaluation, after any that could not be stored
   * before.
   *
   * @param freshest gives the latest version of a finding that waits to be stored
   */
  void publish(List<FindingChange> changes, UnaryOperator<Finding> freshest) {
    for (FindingChange c : changes) {
      log(c);
      unsaved.remove(c.finding().id());
      unsaved.put(c.finding().id(), c.finding());
    }
    int failed = 0;
    RuntimeException cause = null;
    for (Iterator<Finding> it = unsaved.values().iterator(); it.hasNext(); ) {
      Finding f = freshest.apply(it.next());
      try {
        repository.save(f);
      } catch (RuntimeException e) {
        failed++;
        cause = cause == null ? e : cause;
        continue;
      }
      it.remove();
      tell(f);
    }
    if (failed > 0) {
      LOG.log(
          Level.WARNING,
          "Could not store "
              + failed
              + " finding change(s); they are kept in memory and"
              + " stored on the next evaluation. Check the store's disk and logs.",
          cause);
    }
  }

  private void tell(Finding f) {
    for (FindingListener listener : listeners) {
      try {
        listener.findingChanged(f);
      } catch (RuntimeException e) {
        LOG.log(
            Level.WARNING,
            "Finding listener "
                + listener.getClass().getName()
                + " failed on finding "
                + f.id()
                + "; the finding is stored and other listeners were told.",
            e);
      }
    }
  }

  private static void log(FindingChange c) {
    Finding f = c.finding();
    String where = f.gpu() < 0 ? f.node().value() : f.node().value() + " GPU " + f.gpu();
    switch (c.type()) {
      case OPENED ->
          LOG.log(
              Level.INFO,
              "Finding opened: {0} on {1} ({2}): {3}. Recommended: {4}",
              f.kind(),
              where,
              f.severity(),
              f.summary(),
              f.recommendedAction());
      case CHANGED ->
          LOG.log(
              Level.INFO,
              "Finding changed: {0} on {1} is now {2}: {3}",
              f.kind(),
              where,
              f.severity(),
              f.summary());
      case RESOLVED ->
          LOG.log(
              Level.INFO,
              "Finding resolved: {0} on {1}, no longer reported since {2}",
              f.kind(),
              where,
              f.lastSeen());
      case REFRESHED -> LOG.log(Level.DEBUG, "Finding still open: {0} on {1}", f.kind(), where);
    }
  }
}
