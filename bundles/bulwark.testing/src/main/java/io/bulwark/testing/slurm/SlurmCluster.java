package io.bulwark.testing.slurm;

import io.bulwark.testing.slurm.SlurmProcesses.Result;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A real Slurm 22.05 cluster (the Debian packages {@code slurmctld}, {@code slurmd}, {@code
 * slurm-client} and {@code munge}) running on 127.0.0.1 for the length of a test, so that code
 * which drives Slurm is tested against slurmctld and the real {@code scontrol}, {@code sinfo} and
 * {@code squeue} rather than an imitation. {@link #start(Path, List)} returns once every node is
 * idle, 0.1 to 0.3 s after it is called here; {@link #close()} stops everything it started.
 *
 * <p>What runs, all as the current user and with the current folder {@code dir}, without systemd:
 *
 * <ul>
 *   <li>{@code munged --foreground} with its own random key, socket, PID, log and seed files in a
 *       private folder under {@code java.io.tmpdir} (munged insists that every folder above its
 *       socket is searchable by all, which a JUnit temporary folder is not, and the socket path
 *       must stay short); {@code slurm.conf} names the socket with {@code AuthInfo=socket=...}; the
 *       nodes' spool folders are there too, since slurmstepd makes Unix sockets in them and a
 *       socket path has at most 108 bytes (a deep build folder would exceed it);
 *   <li>{@code slurmctld -D -f <dir>/slurm.conf} on a free port;
 *   <li>one {@code slurmd -D -N <node> -f <dir>/slurm.conf} per node, each on a free port of its
 *       own ({@code Port=} on its {@code NodeName} line, {@code NodeAddr=127.0.0.1}).
 * </ul>
 *
 * <p>Several slurmd on one host: the Debian 22.05 build is configured with {@code
 * --enable-multiple-slurmd} ({@code scontrol show config} prints {@code MULTIPLE_SLURMD = Yes}), so
 * each node is a slurmd of its own, with its own port, spool folder ({@code SlurmdSpoolDir=.../%n})
 * and PID file, and its own registration, state and jobs, as on a real cluster. Front-end mode was
 * not used: it runs one daemon for all nodes, so a node could not stop answering by itself. {@code
 * CommunicationParameters=NoInAddrAny,NoCtldInAddrAny} keeps every daemon on 127.0.0.1.
 *
 * <p>The configuration ({@code <dir>/slurm.conf}): {@code SlurmUser} and {@code SlurmdUser} are the
 * current user; {@code proctrack/linuxproc}, {@code task/none}, no cgroups, no accounting, no job
 * completion log; {@code select/cons_tres} by core with {@link SlurmClusterBuilder#cpusPerNode}
 * CPUs per node (4 by default; {@code SlurmdParameters=config_overrides} lets a node offer more
 * than the machine has), so several one-CPU jobs share a node; {@code ReturnToService=2}, {@code
 * SlurmdTimeout} of 5 s unless set, {@code KillWait=2}, {@code
 * SchedulerParameters=batch_sched_delay=0} (a submitted job starts within about a second; the first
 * after start waits some 3 s, as slurmctld schedules nothing in its first seconds); the partitions
 * given to the {@link SlurmClusterBuilder}, or one partition {@value #DEFAULT_PARTITION} with every
 * node; the first partition is the default. Client commands reach this cluster when {@code
 * SLURM_CONF} is {@link #slurmConf()} ({@link #environment()}); the daemons' output is in {@code
 * <dir>/log/}.
 *
 * <p>Root is not needed: nothing here uses cgroups, privileged ports or another user, and the
 * cluster runs as root or as any user (both are tested). Jobs run as the user who started the
 * cluster. When a program is missing, {@code start} throws naming the Debian package to install, so
 * tests that need Slurm fail rather than skip.
 */
public final class SlurmCluster implements AutoCloseable {
  /** The partition {@link #start(Path, List)} puts every node in. */
  public static final String DEFAULT_PARTITION = "gpu";

  private static final Pattern JOB_ID = Pattern.compile("[0-9]+(_[0-9]+)?");
  private static final Duration JOB_START_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration CANCEL_WAIT = Duration.ofSeconds(10);

  private final Path dir;
  private final List<String> nodes;
  private final Map<String, List<String>> partitions;
  private final SlurmDaemons daemons;
  private final Thread killOnExit;
  private Duration startedIn = Duration.ZERO;
  private boolean closed;

  private SlurmCluster(Path dir, SlurmClusterBuilder settings, SlurmDaemons daemons) {
    this.dir = dir;
    this.nodes = List.copyOf(settings.nodes);
    this.partitions = Collections.unmodifiableMap(settings.resolvedPartitions());
    this.daemons = daemons;
    this.killOnExit = new Thread(daemons::kill, "slurm-cluster-kill-on-exit");
  }

  /**
   * Starts a cluster of {@code nodes} (e.g. {@code List.of("gpu01", "gpu02")}), all in partition
   * {@value #DEFAULT_PARTITION}, with its files in {@code dir} (created if missing; a JUnit
   * temporary folder suits); returns once every node is idle. Close it when the test is done.
   *
   * @throws IllegalArgumentException if a node name is not a plain Slurm node name, or {@code dir}
   *     holds this JVM's working folder
   * @throws IllegalStateException if a program is missing (the message names the package to
   *     install), or the cluster does not come up within 30 s (the message holds the daemons'
   *     output)
   */
  public static SlurmCluster start(Path dir, List<String> nodes) {
    return builder(dir).nodes(nodes).start();
  }

  /** A builder for a cluster with its files in {@code dir}, for partitions and other settings. */
  public static SlurmClusterBuilder builder(Path dir) {
    return new SlurmClusterBuilder(dir);
  }

  static SlurmCluster launch(SlurmClusterBuilder settings) {
    Path dir = settings.dir.toAbsolutePath().normalize();
    if (Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize().startsWith(dir)) {
      throw new IllegalArgumentException(
          "the Slurm test cluster needs a folder of its own (a JUnit @TempDir), not "
              + dir
              + ", which holds this JVM's working folder: close() kills what works below it");
    }
    long began = System.nanoTime();
    SlurmCluster cluster =
        new SlurmCluster(dir, settings, new SlurmDaemons(dir, settings.searchPath, settings.nodes));
    Runtime.getRuntime().addShutdownHook(cluster.killOnExit);
    try {
      cluster.daemons.start(settings);
      cluster.startedIn = Duration.ofNanos(System.nanoTime() - began);
      return cluster;
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /** The configuration file: what {@code SLURM_CONF} must name for the client commands. */
  public Path slurmConf() {
    return daemons.slurmConf();
  }

  /** The environment the client commands need to reach this cluster: {@code SLURM_CONF}. */
  public Map<String, String> environment() {
    return Map.of("SLURM_CONF", slurmConf().toString());
  }

  /** The cluster's folder. */
  public Path directory() {
    return dir;
  }

  /** The node names, in the order given. */
  public List<String> nodes() {
    return nodes;
  }

  /** Each partition's nodes, the default partition first. */
  public Map<String, List<String>> partitions() {
    return partitions;
  }

  /** How long {@code start} took, from its call until every node was idle. */
  public Duration startedIn() {
    return startedIn;
  }

  /**
   * Submits a batch job that sleeps for {@code runFor} on {@code node} (one CPU) and returns its id
   * once Slurm reports it running there.
   *
   * @throws IllegalArgumentException if the node is not one of the cluster's or {@code runFor} is
   *     under a second
   * @throws IllegalStateException if sbatch refuses or the job is not running within 30 s
   */
  public String submit(String node, Duration runFor) {
    return submit(List.of(node), runFor);
  }

  /**
   * Submits one batch job that sleeps for {@code runFor} on all of {@code jobNodes} (one CPU on
   * each) and returns its id once Slurm reports it running.
   *
   * @throws IllegalArgumentException if a node is not one of the cluster's, no partition holds all
   *     of them, or {@code runFor} is under a second
   * @throws IllegalStateException if sbatch refuses or the job is not running within 30 s
   */
  public String submit(List<String> jobNodes, Duration runFor) {
    if (jobNodes.isEmpty() || !nodes.containsAll(jobNodes)) {
      throw new IllegalArgumentException(
          "a job can only run on the cluster's nodes " + nodes + ", not on " + jobNodes);
    }
    if (runFor.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "a job must run at least 1 s so that it is seen running, not " + runFor);
    }
    String partition =
        partitions.entrySet().stream()
            .filter(p -> p.getValue().containsAll(jobNodes))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow(
                () -> new IllegalArgumentException("no partition holds all of " + jobNodes));
    Set<String> distinct = new LinkedHashSet<>(jobNodes);
    String seconds = BigDecimal.valueOf(runFor.toMillis(), 3).toPlainString();
    String out =
        run(
            "sbatch",
            "--parsable",
            "--job-name=bulwark-test",
            "--partition=" + partition,
            "--nodes=" + distinct.size(),
            "--nodelist=" + String.join(",", distinct),
            "--ntasks-per-node=1",
            "--cpus-per-task=1",
            "--output=/dev/null",
            "--error=/dev/null",
            "--chdir=" + dir.resolve("jobs"),
            "--wrap=exec sleep " + seconds);
    String id = out.strip().split(";", 2)[0];
    if (!JOB_ID.matcher(id).matches()) {
      throw new IllegalStateException("sbatch answered \"" + out.strip() + "\", not a job id");
    }
    awaitRunning(id, distinct);
    return id;
  }

  /**
   * Cancels a job with {@code scancel}; returns once slurmctld has taken the request, before the
   * job has left its nodes.
   *
   * @throws IllegalArgumentException if {@code jobId} is not a job id
   * @throws IllegalStateException if scancel fails
   */
  public void cancel(String jobId) {
    if (jobId == null || !JOB_ID.matcher(jobId).matches()) {
      throw new IllegalArgumentException("not a Slurm job id: \"" + jobId + "\"");
    }
    run("scancel", jobId);
  }

  /**
   * Runs the real {@code scontrol} with {@code args} against this cluster and returns its standard
   * output, e.g. {@code scontrol("show", "node", "gpu01")}.
   *
   * @throws IllegalStateException if it exits with a non-zero status (the message holds what it
   *     said) or runs past 30 s
   */
  public String scontrol(String... args) {
    return run("scontrol", args);
  }

  /**
   * Runs one of the client commands ({@code scontrol}, {@code sinfo}, {@code squeue}, {@code
   * sbatch}, {@code scancel}) with {@code args} against this cluster; returns its standard output.
   *
   * @throws IllegalArgumentException if {@code client} is not one of those
   * @throws IllegalStateException as {@link #scontrol}
   */
  public String run(String client, String... args) {
    Result result = daemons.client(client, args);
    if (result.exitCode() != 0) {
      throw new IllegalStateException(
          String.join(" ", result.command())
              + " exited with status "
              + result.exitCode()
              + ":\n"
              + result.said());
    }
    return result.stdout();
  }

  /** The path of one of the client commands this cluster runs, e.g. {@code scontrol}. */
  public Path program(String client) {
    if (!SlurmDaemons.CLIENTS.contains(client)) {
      throw new IllegalArgumentException("not a Slurm client command: " + client);
    }
    return daemons.program(client);
  }

  /** Stops slurmctld (SIGTERM; SIGKILL after 10 s), so that tests see a controller that is gone. */
  public void stopController() {
    daemons.stopController();
  }

  /** Stops the slurmd of {@code node}; slurmctld marks it down some 15 s later. */
  public void stopNode(String node) {
    daemons.stopNode(node);
  }

  /** The end of each daemon's output, for failure messages. */
  public String log() {
    return daemons.log();
  }

  /**
   * Cancels every job, stops the slurmd, slurmctld and munged (SIGTERM; SIGKILL after 10 s), kills
   * whatever a job left working in the cluster's folder, and removes munged's folder; returns once
   * all of them are gone. Calling it again does nothing.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (daemons.controllerRunning()) {
      cancelAllJobs();
    }
    daemons.stopAll();
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException e) {
      // The JVM is shutting down and the hook runs anyway.
    }
  }

  private void awaitRunning(String id, Set<String> jobNodes) {
    long deadline = System.nanoTime() + JOB_START_TIMEOUT.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      Result r = daemons.client("squeue", "--noheader", "--jobs=" + id, "--format=%T|%N|%r");
      last = r.said();
      if (r.exitCode() == 0 && last.startsWith("RUNNING|")) {
        return;
      }
      boolean waiting = last.startsWith("PENDING|") || last.startsWith("CONFIGURING|");
      if (r.exitCode() == 0 && !waiting) {
        break;
      }
      SlurmProcesses.pause(20);
    }
    throw new IllegalStateException(
        "job "
            + id
            + " on "
            + jobNodes
            + " is not running (squeue: "
            + (last.isEmpty() ? "no such job" : last)
            + "); daemons' output:\n"
            + log());
  }

  private void cancelAllJobs() {
    long deadline = System.nanoTime() + CANCEL_WAIT.toNanos();
    boolean cancelled = false;
    while (System.nanoTime() < deadline) {
      Result jobs = daemons.client("squeue", "--noheader", "--format=%A");
      List<String> ids =
          jobs.stdout().lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
      if (jobs.exitCode() != 0 || ids.isEmpty()) {
        return;
      }
      if (!cancelled) {
        daemons.client("scancel", new ArrayList<>(ids).toArray(String[]::new));
        cancelled = true;
      }
      SlurmProcesses.pause(50);
    }
  }
}
