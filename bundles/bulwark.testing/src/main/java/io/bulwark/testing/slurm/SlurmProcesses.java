package io.bulwark.testing.slurm;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How a {@link SlurmCluster} finds, runs and stops programs: the daemons, the client commands, and
 * whatever a job left behind after its daemons stopped.
 */
final class SlurmProcesses {
  /** Where programs are looked for after the {@code PATH}. */
  static final List<Path> SYSTEM_DIRS =
      List.of(Path.of("/usr/sbin"), Path.of("/usr/bin"), Path.of("/sbin"), Path.of("/bin"));

  /** What a client command left: its exit status and its two outputs. */
  record Result(List<String> command, int exitCode, String stdout, String stderr) {
    /** Both outputs, for a failure message. */
    String said() {
      return (stdout + (stderr.isEmpty() ? "" : "\n" + stderr)).strip();
    }
  }

  private SlurmProcesses() {}

  /** The default search path: the {@code PATH} variable, then {@link #SYSTEM_DIRS}. */
  static List<Path> defaultSearchPath() {
    List<Path> dirs = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      for (String entry : path.split(File.pathSeparator)) {
        if (!entry.isEmpty()) {
          dirs.add(Path.of(entry));
        }
      }
    }
    dirs.addAll(SYSTEM_DIRS);
    return List.copyOf(dirs);
  }

  /**
   * Finds {@code name} in {@code searchPath}; throws, naming the Debian package to install, when it
   * is in none of those folders.
   */
  static Path find(String name, String debianPackage, List<Path> searchPath) {
    for (Path dir : searchPath) {
      Path candidate = dir.resolve(name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        name
            + " is not installed (looked in "
            + searchPath
            + ") and the Slurm test cluster needs it: install the Debian package "
            + debianPackage
            + " (apt-get install slurmctld slurmd slurm-client munge)");
  }

  /**
   * The environment for Slurm's programs: this JVM's, without any {@code SLURM_*} or client option
   * variable that would point them elsewhere or change their output, with {@code SLURM_CONF} set.
   */
  static void prepareEnvironment(Map<String, String> env, Path slurmConf) {
    env.keySet()
        .removeIf(
            k ->
                k.startsWith("SLURM_")
                    || k.startsWith("SBATCH_")
                    || k.startsWith("SQUEUE_")
                    || k.startsWith("SINFO_")
                    || k.startsWith("SCONTROL_")
                    || k.startsWith("SALLOC_")
                    || k.startsWith("SRUN_"));
    env.put("SLURM_CONF", slurmConf.toAbsolutePath().toString());
  }

  /**
   * Starts a daemon in {@code dir} with its output in {@code log}.
   *
   * @throws IllegalStateException if it cannot be started
   */
  static Process startDaemon(List<String> command, Path dir, Path slurmConf, Path log) {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    prepareEnvironment(builder.environment(), slurmConf);
    try {
      return builder.start();
    } catch (IOException e) {
      throw new IllegalStateException(
          "could not start " + String.join(" ", command) + ": " + e.getMessage(), e);
    }
  }

  /**
   * Runs a client command to its end, with {@code SLURM_CONF} set; kills it past {@code timeout}.
   *
   * @throws IllegalStateException if it cannot be started or runs past the timeout
   */
  static Result run(List<String> command, Path dir, Path slurmConf, Duration timeout) {
    Path out;
    Path err;
    try {
      out = Files.createTempFile(dir, "command-", ".out");
      err = Files.createTempFile(dir, "command-", ".err");
    } catch (IOException e) {
      throw new UncheckedIOException("could not create output files in " + dir, e);
    }
    try {
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      prepareEnvironment(builder.environment(), slurmConf);
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
        throw new IllegalStateException(
            String.join(" ", command)
                + " did not finish within "
                + timeout.toMillis()
                + " ms; its output so far:\n"
                + read(out)
                + read(err));
      }
      return new Result(List.copyOf(command), process.exitValue(), read(out), read(err));
    } catch (IOException e) {
      throw new IllegalStateException(
          "could not run " + String.join(" ", command) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command.get(0), e);
    } finally {
      deleteQuietly(out);
      deleteQuietly(err);
    }
  }

  /**
   * Stops a daemon and what it started: SIGTERM, then SIGKILL for whatever is still there after
   * {@code grace}; returns once they are gone.
   */
  static void stop(Process process, Duration grace) {
    List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
    all.add(0, process.toHandle());
    all.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + grace.toNanos();
    all.forEach(h -> awaitExit(h, deadline));
    all.stream().filter(SlurmProcesses::running).forEach(ProcessHandle::destroyForcibly);
    long killDeadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    all.forEach(h -> awaitExit(h, killDeadline));
  }

  /**
   * The live processes, other than this JVM, whose working folder is {@code dir} or below it: the
   * slurmstepd of each job (it works in its slurmd's folder and outlives it) and the job's own
   * processes (they work in the jobs folder). Only this user's processes are looked at, and never
   * this JVM or its ancestors.
   */
  static List<ProcessHandle> workingIn(Path dir) {
    Path root = dir.toAbsolutePath().normalize();
    ProcessHandle self = ProcessHandle.current();
    List<Long> spared = new ArrayList<>();
    for (Optional<ProcessHandle> h = Optional.of(self); h.isPresent(); h = h.get().parent()) {
      spared.add(h.get().pid());
    }
    Optional<String> user = self.info().user();
    return ProcessHandle.allProcesses()
        .filter(h -> !spared.contains(h.pid()))
        .filter(h -> user.isEmpty() || h.info().user().equals(user))
        .filter(h -> cwd(h).map(c -> c.startsWith(root)).orElse(false))
        .filter(SlurmProcesses::running)
        .toList();
  }

  /** Whether the process exists and is not a zombie waiting for its parent. */
  static boolean running(ProcessHandle handle) {
    if (!handle.isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(handle.pid()), "stat"));
      int close = stat.lastIndexOf(')');
      return close < 0 || close + 2 >= stat.length() || stat.charAt(close + 2) != 'Z';
    } catch (IOException e) {
      return handle.isAlive();
    }
  }

  /** Kills every process {@link #workingIn} lists and waits a little for them to go. */
  static void killWorkingIn(Path dir) {
    List<ProcessHandle> left = workingIn(dir);
    left.forEach(ProcessHandle::destroyForcibly);
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    left.forEach(h -> awaitExit(h, deadline));
  }

  /** The whole text file, or "" where it cannot be read. */
  static String read(Path file) {
    try {
      return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "(could not read " + file + ": " + e.getMessage() + ")";
    }
  }

  /** The last {@code maxChars} characters of a text file. */
  static String tail(Path file, int maxChars) {
    String text = read(file);
    return text.length() <= maxChars ? text : "..." + text.substring(text.length() - maxChars);
  }

  /** Sleeps between two polls. */
  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the Slurm test cluster", e);
    }
  }

  private static Optional<Path> cwd(ProcessHandle handle) {
    try {
      return Optional.of(
          Files.readSymbolicLink(Path.of("/proc", Long.toString(handle.pid()), "cwd")));
    } catch (IOException | SecurityException | UnsupportedOperationException e) {
      return Optional.empty();
    }
  }

  private static void awaitExit(ProcessHandle handle, long deadlineNanos) {
    while (running(handle)) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        return;
      }
      try {
        handle
            .onExit()
            .get(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        // Not gone yet, or gone as a zombie that onExit does not see: look again.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A leftover output file in the cluster's folder does no harm.
    }
  }
}
