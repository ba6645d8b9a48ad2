package io.bulwark.scheduler.slurm.internal;

import io.bulwark.api.scheduler.SchedulerException;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of Slurm's client commands ({@code scontrol}, {@code sinfo}, {@code squeue}) from the
 * configured folder with a list of arguments, never through a shell, and waits for it within the
 * configured timeout; a call that runs longer is killed with everything it started. The command
 * gets the appliance's environment without the variables that would send it to another cluster or
 * change what it prints ({@code SLURM_*} but {@code SLURM_CONF}, {@code SQUEUE_*}, {@code SINFO_*},
 * {@code SCONTROL_*}); {@code SLURM_CONF} is the configured {@code slurm.conf} where one is set,
 * and the appliance's own (if any) otherwise. Standard output and error go to private temporary
 * files, so a chatty or stuck child can neither fill a pipe nor keep a reader waiting. Safe to use
 * from several threads at once: each call has its own process and files.
 */
final class SlurmCommand {
  private static final Logger LOG = System.getLogger(SlurmCommand.class.getName());
  static final long OUTPUT_LIMIT = 64L << 20;

  private final SlurmOptions options;

  SlurmCommand(SlurmOptions options) {
    this.options = options;
  }

  /**
   * Runs {@code tool} with {@code arguments}. {@code purpose} says what the call is for, in words
   * that follow "to" ("drain gpu-a07").
   *
   * @throws SchedulerException if the command or the configured slurm.conf is missing, it cannot be
   *     started, runs past the timeout or writes more than 64 MiB; a non-zero exit status is not an
   *     error here
   */
  SlurmOutput run(String tool, String purpose, List<String> arguments) throws SchedulerException {
    Path program = options.binDir().resolve(tool);
    checkFiles(program, purpose);
    List<String> command = new ArrayList<>();
    command.add(program.toString());
    command.addAll(arguments);
    Path out = null;
    Path err = null;
    try {
      out = Files.createTempFile("bulwark-slurm-", ".out");
      err = Files.createTempFile("bulwark-slurm-", ".err");
      LOG.log(Level.DEBUG, "{0}: running {1}", options.name(), command);
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
      environment(builder.environment());
      Process process = builder.start();
      process.getOutputStream().close();
      int exitCode = waitFor(process, tool, purpose);
      return new SlurmOutput(command, exitCode, read(out, tool, purpose), read(err, tool, purpose));
    } catch (IOException e) {
      throw new SchedulerException(
          options.name()
              + ": cannot run "
              + program
              + " to "
              + purpose
              + ": "
              + e.getMessage()
              + "; check that the appliance may execute it and has room in its temporary folder",
          e);
    } finally {
      delete(out);
      delete(err);
    }
  }

  private void checkFiles(Path program, String purpose) throws SchedulerException {
    if (!Files.isRegularFile(program)) {
      throw new SchedulerException(
          options.name()
              + ": cannot run "
              + program
              + " to "
              + purpose
              + ": there is no such file; install the Slurm client commands on the appliance"
              + " (Debian: apt-get install slurm-client) or set binDir to the folder that holds"
              + " scontrol, sinfo and squeue");
    }
    if (!Files.isExecutable(program)) {
      throw new SchedulerException(
          options.name()
              + ": cannot run "
              + program
              + " to "
              + purpose
              + ": the appliance may not execute it; check its permissions");
    }
    if (options.slurmConf().isPresent() && !Files.isReadable(options.slurmConf().get())) {
      throw new SchedulerException(
          options.name()
              + ": cannot "
              + purpose
              + ": the configured slurmConf "
              + options.slurmConf().get()
              + " does not exist or may not be read; copy the cluster's slurm.conf there (the"
              + " Slurm commands wait a minute for a missing one) or fix slurmConf");
    }
  }

  private void environment(Map<String, String> env) {
    env.keySet()
        .removeIf(
            k ->
                (k.startsWith("SLURM_") && !k.equals("SLURM_CONF"))
                    || k.startsWith("SQUEUE_")
                    || k.startsWith("SINFO_")
                    || k.startsWith("SCONTROL_"));
    options.slurmConf().ifPresent(conf -> env.put("SLURM_CONF", conf.toString()));
  }

  private int waitFor(Process process, String tool, String purpose) throws SchedulerException {
    try {
      if (process.waitFor(options.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
        return process.exitValue();
      }
      kill(process);
      throw new SchedulerException(
          options.name()
              + ": "
              + tool
              + " did not answer within "
              + options.timeout().toSeconds()
              + " s when asked to "
              + purpose
              + " and was stopped; check that slurmctld is up (scontrol ping) and that the"
              + " appliance reaches the SlurmctldHost of "
              + options.slurmConf().map(Path::toString).orElse("the cluster's slurm.conf")
              + ", or raise timeoutSeconds");
    } catch (InterruptedException e) {
      kill(process);
      Thread.currentThread().interrupt();
      throw new SchedulerException(
          options.name() + ": stopped waiting for " + tool + " to " + purpose + ": interrupted", e);
    }
  }

  private static void kill(Process process) {
    List<ProcessHandle> children = process.descendants().toList();
    process.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly);
    try {
      process.waitFor(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private String read(Path file, String tool, String purpose)
      throws IOException, SchedulerException {
    if (Files.size(file) > OUTPUT_LIMIT) {
      throw new SchedulerException(
          options.name()
              + ": "
              + tool
              + " wrote more than "
              + (OUTPUT_LIMIT >> 20)
              + " MiB when asked to "
              + purpose
              + "; that is not output the connector can read");
    }
    return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
  }

  private static void delete(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "cannot delete {0}: {1}", file, e.getMessage());
    }
  }
}
