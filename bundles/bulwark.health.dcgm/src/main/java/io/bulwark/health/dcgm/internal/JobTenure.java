package io.bulwark.health.dcgm.internal;

import io.bulwark.api.scheduler.JobPlacement;
import io.bulwark.api.scheduler.SchedulerJob;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Since when each node has been in each job, as far as the job map shows it, and whether it has
 * kept pace with the job's other nodes on SM activity since. The job map tells only who runs where
 * now, so a node counts as in a job from the first read that lists it (it may have joined up to one
 * refresh earlier: the estimate errs late, never early), and leaves it at the first read that does
 * not; a node leaving and coming back starts again. Another job map (a new service) starts from
 * nothing. Used by the straggler detector from the engine's thread only.
 */
final class JobTenure {
  private final Map<Member, Tenure> members = new HashMap<>();
  private JobPlacement source;
  private long lastRead = Long.MIN_VALUE;

  /** A node in a job. */
  record Member(String scheduler, String job, String node) {}

  private static final class Tenure {
    final long sinceMillis;
    boolean keptPace;

    Tenure(long sinceMillis) {
      this.sinceMillis = sinceMillis;
    }
  }

  /**
   * Takes in the job map {@code source} read at {@code readAt} (epoch ms; 0 if never read). The
   * caller reads the jobs before the read time, so that a refresh between the two calls can only
   * make a node's start look later than it was.
   */
  void update(JobPlacement source, List<SchedulerJob> jobs, long readAt) {
    if (source != this.source) {
      clear();
      this.source = source;
    }
    if (readAt <= 0 || readAt == lastRead) {
      return;
    }
    lastRead = readAt;
    Set<Member> listed = new HashSet<>();
    for (SchedulerJob job : jobs) {
      for (String node : job.nodes()) {
        listed.add(new Member(job.scheduler(), job.id(), node));
      }
    }
    members.keySet().retainAll(listed);
    for (Member m : listed) {
      members.computeIfAbsent(m, k -> new Tenure(readAt));
    }
  }

  /** Forgets every job: no job map is bound. */
  void clear() {
    members.clear();
    source = null;
    lastRead = Long.MIN_VALUE;
  }

  /**
   * Returns since when (epoch ms, a read time of the job map) the node has been in the job, or
   * {@link Long#MAX_VALUE} if it is not in it.
   */
  long since(Member member) {
    Tenure t = members.get(member);
    return t == null ? Long.MAX_VALUE : t.sinceMillis;
  }

  /** Returns true if the node has been judged on par with the job's nodes on SM activity. */
  boolean keptPace(Member member) {
    Tenure t = members.get(member);
    return t != null && t.keptPace;
  }

  /** Records that the node was judged on par with the job's other nodes on SM activity. */
  void markKeptPace(Member member) {
    Tenure t = members.get(member);
    if (t != null) {
      t.keptPace = true;
    }
  }
}
