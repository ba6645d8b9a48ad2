package io.bulwark.remediation.internal;

import io.bulwark.api.scheduler.JobPlacement;
import io.bulwark.api.scheduler.SchedulerConnector;
import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerJob;
import io.bulwark.api.scheduler.SchedulerNode;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * {@link JobPlacement} from the scheduler connectors: every {@link #REFRESH_SECONDS} s each one's
 * nodes are read and turned into jobs with their nodes, on a thread of its own; readers get the
 * last complete view. A scheduler that cannot be read keeps its previous jobs for that round (and
 * is logged once until it answers again).
 */
@Component(service = JobPlacement.class)
public final class JobMap implements JobPlacement {
  static final int REFRESH_SECONDS = 15;
  private static final System.Logger LOG = System.getLogger(JobMap.class.getName());

  private final Schedulers schedulers;
  private final Map<String, List<SchedulerJob>> byScheduler = new LinkedHashMap<>();
  private final Map<String, String> failing = new LinkedHashMap<>();
  private final Map<String, Long> readAtByScheduler = new LinkedHashMap<>();
  private final ScheduledExecutorService refresher;
  private volatile List<SchedulerJob> jobs = List.of();
  private volatile long readAt;

  @Activate
  public JobMap(@Reference Schedulers schedulers) {
    this.schedulers = schedulers;
    this.refresher =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bulwark-job-map");
              t.setDaemon(true);
              return t;
            });
    refresher.scheduleWithFixedDelay(this::refreshQuietly, 2, REFRESH_SECONDS, TimeUnit.SECONDS);
  }

  @Deactivate
  void deactivate() {
    refresher.shutdownNow();
  }

  @Override
  public List<SchedulerJob> jobs() {
    return jobs;
  }

  @Override
  public long readAtMillis() {
    return readAt;
  }

  private void refreshQuietly() {
    try {
      refresh(System.currentTimeMillis());
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Job map: the scheduler view could not be read: " + e.getMessage(), e);
    }
  }

  /** Reads every scheduler once. */
  synchronized void refresh(long nowMillis) {
    List<String> present = new ArrayList<>();
    for (SchedulerConnector c : schedulers.connectors()) {
      present.add(c.name());
      try {
        byScheduler.put(c.name(), jobsOf(c.name(), c.nodes()));
        readAtByScheduler.put(c.name(), nowMillis);
        if (failing.remove(c.name()) != null) {
          LOG.log(Level.INFO, "Job map: {0} answers again", c.name());
        }
      } catch (SchedulerException | RuntimeException e) {
        String message = String.valueOf(e.getMessage());
        if (!message.equals(failing.put(c.name(), message))) {
          LOG.log(
              Level.WARNING,
              "Job map: {0} could not be read ({1}); its jobs stay as last read",
              c.name(),
              message);
        }
      }
    }
    byScheduler.keySet().retainAll(present);
    readAtByScheduler.keySet().retainAll(present);
    List<SchedulerJob> all = new ArrayList<>();
    byScheduler.values().forEach(all::addAll);
    jobs = List.copyOf(all);
    // The oldest view of any scheduler: a scheduler that cannot be read makes the map look as old
    // as its last answer, so that detectors do not take stale placement for fresh.
    long oldest = present.isEmpty() ? nowMillis : Long.MAX_VALUE;
    for (String name : present) {
      oldest = Math.min(oldest, readAtByScheduler.getOrDefault(name, 0L));
    }
    readAt = oldest;
  }

  /** Turns nodes with their jobs into jobs with their nodes, in the scheduler's node order. */
  static List<SchedulerJob> jobsOf(String scheduler, List<SchedulerNode> nodes) {
    Map<String, List<String>> where = new LinkedHashMap<>();
    for (SchedulerNode n : nodes) {
      for (String job : n.jobs()) {
        where.computeIfAbsent(job, j -> new ArrayList<>()).add(n.name());
      }
    }
    List<SchedulerJob> out = new ArrayList<>();
    where.forEach((id, on) -> out.add(new SchedulerJob(scheduler, id, on)));
    return out;
  }
}
