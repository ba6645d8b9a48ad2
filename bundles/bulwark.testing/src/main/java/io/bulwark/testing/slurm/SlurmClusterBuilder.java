package io.bulwark.testing.slurm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The settings of a {@link SlurmCluster} before it starts: its nodes' names, its partitions, CPUs
 * per node, {@code SlurmdTimeout}, how long start may take, and where the programs are looked for.
 * Made by {@link SlurmCluster#builder(Path)}; not for use from several threads.
 */
public final class SlurmClusterBuilder {
  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,62}");

  final Path dir;
  final List<String> nodes = new ArrayList<>();
  private final Map<String, List<String>> partitions = new LinkedHashMap<>();
  int cpus = 4;
  Duration slurmdTimeout = Duration.ofSeconds(5);
  Duration startTimeout = Duration.ofSeconds(30);
  List<Path> searchPath = SlurmProcesses.defaultSearchPath();

  SlurmClusterBuilder(Path dir) {
    if (dir == null) {
      throw new IllegalArgumentException("the Slurm test cluster needs a folder");
    }
    this.dir = dir;
  }

  /**
   * Sets the nodes' names (letters, digits, {@code -} and {@code _}, starting with a letter).
   *
   * @throws IllegalArgumentException if one is not such a name or a name repeats
   */
  public SlurmClusterBuilder nodes(List<String> names) {
    if (names.isEmpty() || new LinkedHashSet<>(names).size() != names.size()) {
      throw new IllegalArgumentException(
          "a Slurm test cluster needs one or more distinct node names, not " + names);
    }
    names.forEach(n -> checkName(n, "node"));
    nodes.clear();
    nodes.addAll(names);
    return this;
  }

  /** Sets the nodes' names; see {@link #nodes(List)}. */
  public SlurmClusterBuilder nodes(String... names) {
    return nodes(List.of(names));
  }

  /**
   * Adds a partition of {@code members}; the first partition added is the default one. Without any,
   * there is one partition {@value SlurmCluster#DEFAULT_PARTITION} with every node.
   *
   * @throws IllegalArgumentException if the name is not a plain name, is already used, or has no
   *     members
   */
  public SlurmClusterBuilder partition(String name, List<String> members) {
    checkName(name, "partition");
    if (partitions.containsKey(name) || members.isEmpty()) {
      throw new IllegalArgumentException(
          "partition " + name + " is given twice or has no nodes (" + members + ")");
    }
    partitions.put(name, List.copyOf(members));
    return this;
  }

  /** Sets the CPUs each node offers (default 4): how many one-CPU jobs fit on a node at once. */
  public SlurmClusterBuilder cpusPerNode(int count) {
    if (count < 1 || count > 256) {
      throw new IllegalArgumentException("CPUs per node must be 1 to 256, not " + count);
    }
    cpus = count;
    return this;
  }

  /**
   * Sets Slurm's {@code SlurmdTimeout}, in whole seconds (default 5 s). slurmctld pings its nodes
   * at intervals of its own, so a stopped slurmd shows as down some 15 s after it stopped.
   */
  public SlurmClusterBuilder slurmdTimeout(Duration timeout) {
    if (timeout.toSeconds() < 1) {
      throw new IllegalArgumentException("SlurmdTimeout must be 1 s or more, not " + timeout);
    }
    slurmdTimeout = timeout;
    return this;
  }

  /** Sets how long start may take until every node is idle (default 30 s). */
  public SlurmClusterBuilder startTimeout(Duration timeout) {
    startTimeout = timeout;
    return this;
  }

  /**
   * Sets the folders the daemons and client commands are looked for in (default: the {@code PATH},
   * then /usr/sbin, /usr/bin, /sbin and /bin).
   */
  public SlurmClusterBuilder searchPath(List<Path> dirs) {
    searchPath = List.copyOf(dirs);
    return this;
  }

  /**
   * Starts the cluster; see {@link SlurmCluster#start(Path, List)}.
   *
   * @throws IllegalArgumentException if no nodes are set or a partition names an unknown node
   * @throws IllegalStateException as {@link SlurmCluster#start(Path, List)}
   */
  public SlurmCluster start() {
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("set the nodes' names before starting the cluster");
    }
    for (Map.Entry<String, List<String>> p : partitions.entrySet()) {
      if (!nodes.containsAll(p.getValue())) {
        throw new IllegalArgumentException(
            "partition " + p.getKey() + " names nodes " + p.getValue() + " not in " + nodes);
      }
    }
    return SlurmCluster.launch(this);
  }

  /** The partitions to configure, the default one first. */
  Map<String, List<String>> resolvedPartitions() {
    Map<String, List<String>> resolved = new LinkedHashMap<>(partitions);
    if (resolved.isEmpty()) {
      resolved.put(SlurmCluster.DEFAULT_PARTITION, List.copyOf(nodes));
    }
    return resolved;
  }

  private static void checkName(String name, String what) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "\""
              + name
              + "\" is not a plain Slurm "
              + what
              + " name: use letters, digits, - and _, starting with a letter, up to 63"
              + " characters");
    }
  }
}
