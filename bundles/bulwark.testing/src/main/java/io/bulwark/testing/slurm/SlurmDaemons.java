package io.bulwark.testing.slurm;

import io.bulwark.testing.slurm.SlurmProcesses.Result;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The daemons of one {@link SlurmCluster} and the programs it runs: finds them, writes the
 * configuration, starts munged, slurmctld and the slurmd (again on other ports when a port was
 * taken between the check and the bind), runs the client commands, and stops it all.
 */
final class SlurmDaemons {
  static final List<String> CLIENTS = List.of("scontrol", "sinfo", "squeue", "sbatch", "scancel");

  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration STOP_GRACE = Duration.ofSeconds(10);
  private static final int START_ATTEMPTS = 3;

  private final Path dir;
  private final Path slurmConf;
  private final Path mungeDir;
  private final Map<String, Path> programs;
  private final List<String> nodes;
  private final Map<String, Process> slurmds = new LinkedHashMap<>();
  private Process munged;
  private Process controller;

  /**
   * Finds the programs and prepares the folders; starts nothing.
   *
   * @throws IllegalStateException if a program is missing (naming its package) or munged could not
   *     have a folder under {@code java.io.tmpdir}
   */
  SlurmDaemons(Path dir, List<Path> searchPath, List<String> nodes) {
    this.dir = dir;
    this.slurmConf = dir.resolve("slurm.conf");
    this.programs = findPrograms(searchPath);
    this.nodes = List.copyOf(nodes);
    try {
      for (String sub : List.of("state", "log", "jobs")) {
        Files.createDirectories(dir.resolve(sub));
      }
      Files.writeString(dir.resolve("plugstack.conf"), "");
      this.mungeDir = createMungeDir();
    } catch (IOException e) {
      throw new UncheckedIOException("could not prepare the Slurm test cluster in " + dir, e);
    }
  }

  Path slurmConf() {
    return slurmConf;
  }

  Path program(String name) {
    return programs.get(name);
  }

  /** Starts munged, then slurmctld and the slurmd; returns once every node is idle. */
  void start(SlurmClusterBuilder settings) {
    startMunged();
    IllegalStateException portTaken = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      try {
        startSlurm(settings);
        return;
      } catch (PortTakenException e) {
        portTaken = new IllegalStateException(e.getMessage(), e);
        slurmds.values().forEach(p -> SlurmProcesses.stop(p, STOP_GRACE));
        slurmds.clear();
        SlurmProcesses.stop(controller, STOP_GRACE);
        controller = null;
        deleteTree(dir.resolve("state"));
        deleteTree(mungeDir.resolve("spool"));
      }
    }
    throw portTaken;
  }

  /** Runs a client command against this cluster to its end; any exit status is returned. */
  Result client(String client, String... args) {
    if (!CLIENTS.contains(client)) {
      throw new IllegalArgumentException(
          "not a Slurm client command: " + client + "; use one of " + CLIENTS);
    }
    List<String> command = new ArrayList<>();
    command.add(programs.get(client).toString());
    command.addAll(List.of(args));
    return SlurmProcesses.run(command, dir, slurmConf, COMMAND_TIMEOUT);
  }

  boolean controllerRunning() {
    return controller != null && controller.isAlive();
  }

  void stopController() {
    if (controller != null) {
      SlurmProcesses.stop(controller, STOP_GRACE);
    }
  }

  void stopNode(String node) {
    Process slurmd = slurmds.get(node);
    if (slurmd == null) {
      throw new IllegalArgumentException("no node " + node + " in " + nodes);
    }
    SlurmProcesses.stop(slurmd, STOP_GRACE);
  }

  /**
   * Stops the slurmd, slurmctld and munged (SIGTERM; SIGKILL after 10 s), kills what jobs left
   * working in the folder, and removes munged's folder.
   */
  void stopAll() {
    slurmds.values().forEach(Process::destroy);
    slurmds.values().forEach(p -> SlurmProcesses.stop(p, STOP_GRACE));
    stopController();
    SlurmProcesses.killWorkingIn(dir);
    if (munged != null) {
      SlurmProcesses.stop(munged, STOP_GRACE);
    }
    deleteTree(mungeDir);
  }

  /** Kills everything at once, for a JVM that exits without closing the cluster. */
  void kill() {
    slurmds.values().forEach(Process::destroyForcibly);
    if (controller != null) {
      controller.destroyForcibly();
    }
    SlurmProcesses.killWorkingIn(dir);
    if (munged != null) {
      munged.destroyForcibly();
    }
    deleteTree(mungeDir);
  }

  /** The end of each daemon's output, for failure messages. */
  String log() {
    StringBuilder text = new StringBuilder();
    try (Stream<Path> logs = Files.list(dir.resolve("log"))) {
      for (Path log : logs.sorted().toList()) {
        text.append("--- ").append(log).append('\n').append(SlurmProcesses.tail(log, 3000));
      }
    } catch (IOException e) {
      text.append("(could not list ").append(dir.resolve("log")).append(": ").append(e);
    }
    return text.toString();
  }

  private static Map<String, Path> findPrograms(List<Path> searchPath) {
    Map<String, Path> found = new HashMap<>();
    found.put("munged", SlurmProcesses.find("munged", "munge", searchPath));
    found.put("slurmctld", SlurmProcesses.find("slurmctld", "slurmctld", searchPath));
    found.put("slurmd", SlurmProcesses.find("slurmd", "slurmd", searchPath));
    for (String client : CLIENTS) {
      found.put(client, SlurmProcesses.find(client, "slurm-client", searchPath));
    }
    found.put("true", SlurmProcesses.find("true", "coreutils", searchPath));
    return found;
  }

  private static Path createMungeDir() throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
    for (Path p = tmp; p != null; p = p.getParent()) {
      if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
        throw new IllegalStateException(
            "munged needs every folder above its socket to be searchable by all users, and "
                + p
                + " is not; run chmod o+x "
                + p
                + " or point java.io.tmpdir at a folder that is (e.g. /tmp)");
      }
    }
    Path mungeDir = Files.createTempDirectory(tmp, "bulwark-munge-");
    Files.setPosixFilePermissions(mungeDir, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path key = mungeDir.resolve("munge.key");
    Files.createFile(
        key, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    byte[] secret = new byte[128];
    new SecureRandom().nextBytes(secret);
    Files.write(key, secret);
    Arrays.fill(secret, (byte) 0);
    return mungeDir;
  }

  private void startMunged() {
    Path socket = mungeDir.resolve("munge.socket");
    List<String> command =
        List.of(
            programs.get("munged").toString(),
            "--foreground",
            "--socket=" + socket,
            "--key-file=" + mungeDir.resolve("munge.key"),
            "--pid-file=" + mungeDir.resolve("munged.pid"),
            "--log-file=" + mungeDir.resolve("munged.log"),
            "--seed-file=" + mungeDir.resolve("munged.seed"),
            "--num-threads=4");
    Path log = dir.resolve("log/munged.out");
    munged = SlurmProcesses.startDaemon(command, dir, slurmConf, log);
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!Files.exists(socket)) {
      if (!munged.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "munged did not open its socket "
                + socket
                + (munged.isAlive() ? " within 10 s" : " and exited")
                + "; command: "
                + String.join(" ", command)
                + "\noutput:\n"
                + SlurmProcesses.read(log));
      }
      SlurmProcesses.pause(5);
    }
  }

  private void startSlurm(SlurmClusterBuilder settings) {
    List<Integer> ports = freePorts(2 + nodes.size());
    Map<String, Integer> nodePorts = new LinkedHashMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      nodePorts.put(nodes.get(i), ports.get(i + 2));
    }
    String conf =
        SlurmConfText.render(
            dir,
            mungeDir.resolve("spool"),
            mungeDir.resolve("munge.socket"),
            System.getProperty("user.name"),
            ports.get(0),
            ports.get(1),
            nodePorts,
            settings.resolvedPartitions(),
            settings.cpus,
            settings.slurmdTimeout,
            programs.get("true"));
    try {
      Files.createDirectories(dir.resolve("state"));
      for (String node : nodes) {
        Files.createDirectories(mungeDir.resolve("spool").resolve(node));
      }
      Files.writeString(slurmConf, conf);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write " + slurmConf, e);
    }
    long deadline = System.nanoTime() + settings.startTimeout.toNanos();
    Path controllerLog = dir.resolve("log/slurmctld.out");
    controller =
        SlurmProcesses.startDaemon(
            List.of(programs.get("slurmctld").toString(), "-D", "-f", slurmConf.toString()),
            dir,
            slurmConf,
            controllerLog);
    while (!listening(ports.get(0))) {
      checkAlive(controller, "slurmctld", controllerLog, deadline);
      SlurmProcesses.pause(10);
    }
    for (String node : nodes) {
      slurmds.put(
          node,
          SlurmProcesses.startDaemon(
              List.of(
                  programs.get("slurmd").toString(), "-D", "-N", node, "-f", slurmConf.toString()),
              dir,
              slurmConf,
              slurmdLog(node)));
    }
    Map<String, String> states = Map.of();
    while (!allIdle(states)) {
      checkAlive(controller, "slurmctld", controllerLog, 0);
      for (Map.Entry<String, Process> slurmd : slurmds.entrySet()) {
        checkAlive(slurmd.getValue(), "slurmd " + slurmd.getKey(), slurmdLog(slurmd.getKey()), 0);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the Slurm test cluster's nodes were not all idle within "
                + settings.startTimeout.toSeconds()
                + " s (last seen: "
                + states
                + "); the machine may be overloaded. Configuration "
                + slurmConf
                + ":\n"
                + conf
                + log());
      }
      SlurmProcesses.pause(20);
      states = nodeStates();
    }
  }

  private boolean allIdle(Map<String, String> states) {
    return !states.isEmpty() && nodes.stream().allMatch(n -> "idle".equals(states.get(n)));
  }

  private Map<String, String> nodeStates() {
    Result result = client("sinfo", "--noheader", "--Node", "--format=%N|%T");
    Map<String, String> states = new HashMap<>();
    if (result.exitCode() == 0) {
      for (String line : result.stdout().split("\n")) {
        String[] fields = line.strip().split("\\|", 2);
        if (fields.length == 2) {
          states.put(fields[0], fields[1]);
        }
      }
    }
    return states;
  }

  private void checkAlive(Process process, String name, Path log, long deadlineNanos) {
    if (!process.isAlive()) {
      String output = SlurmProcesses.read(log);
      if (output.contains("Address already in use")) {
        throw new PortTakenException(name + " found its port taken:\n" + output);
      }
      throw new IllegalStateException(
          name
              + " exited with status "
              + process.exitValue()
              + " while the Slurm test cluster started; configuration "
              + slurmConf
              + ":\n"
              + SlurmProcesses.read(slurmConf)
              + "\n"
              + log());
    }
    if (deadlineNanos != 0 && System.nanoTime() > deadlineNanos) {
      throw new IllegalStateException(
          name + " did not start listening in time; its output:\n" + SlurmProcesses.read(log));
    }
  }

  private Path slurmdLog(String node) {
    return dir.resolve("log/slurmd-" + node + ".out");
  }

  private static boolean listening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static List<Integer> freePorts(int count) {
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      }
      return held.stream().map(ServerSocket::getLocalPort).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("could not find " + count + " free ports on 127.0.0.1", e);
    } finally {
      for (ServerSocket s : held) {
        try {
          s.close();
        } catch (IOException e) {
          // The port is free again either way.
        }
      }
    }
  }

  private static void deleteTree(Path root) {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // A leftover file in a temporary folder does no harm.
    }
  }

  /** A daemon found its port taken between our check and its bind: start again on others. */
  private static final class PortTakenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PortTakenException(String message) {
      super(message);
    }
  }
}
