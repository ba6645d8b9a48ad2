package io.bulwark.scheduler.pbs.internal;

import io.bulwark.api.scheduler.SchedulerException;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the configured pbsnodes with a list of arguments, never through a shell, and waits for it
 * within the configured timeout; a call that runs longer is killed with everything it started.
 * Standard output and error go to private temporary files, so a chatty or stuck child can neither
 * fill a pipe nor keep a reader waiting. Safe to use from several threads at once: each call has
 * its own process and files.
 */
final class PbsnodesCommand {
  private static final Logger LOG = System.getLogger(PbsnodesCommand.class.getName());
  static final long OUTPUT_LIMIT = 64L << 20;

  private final PbsOptions options;

  PbsnodesCommand(PbsOptions options) {
    this.options = options;
  }

  /**
   * Runs pbsnodes with {@code arguments} after the {@code -s server} option, if one is configured.
   * {@code purpose} says what the call is for, in words that follow "to" ("drain gpu-a07").
   *
   * @throws SchedulerException if pbsnodes is missing, cannot be started, runs past the timeout or
   *     writes more than 64 MiB; a non-zero exit status is not an error here
   */
  PbsnodesOutput run(String purpose, List<String> arguments) throws SchedulerException {
    Path pbsnodes = options.pbsnodes();
    if (!Files.isRegularFile(pbsnodes)) {
      throw new SchedulerException(
          options.name()
              + ": cannot run "
              + pbsnodes
              + " to "
              + purpose
              + ": there is no such file; install the PBS client commands on the appliance or set"
              + " binDir to the folder that holds pbsnodes");
    }
    if (!Files.isExecutable(pbsnodes)) {
      throw new SchedulerException(
          options.name()
              + ": cannot run "
              + pbsnodes
              + " to "
              + purpose
              + ": the appliance may not execute it; check its permissions");
    }
    List<String> command = new ArrayList<>();
    command.add(pbsnodes.toString());
    options
        .server()
        .ifPresent(
            server -> {
              command.add("-s");
              command.add(server);
            });
    command.addAll(arguments);
    Path out = null;
    Path err = null;
    try {
      out = Files.createTempFile("bulwark-pbsnodes-", ".out");
      err = Files.createTempFile("bulwark-pbsnodes-", ".err");
      LOG.log(Level.DEBUG, "{0}: running {1}", options.name(), command);
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      process.getOutputStream().close();
      int exitCode = waitFor(process, purpose);
      return new PbsnodesOutput(command, exitCode, read(out, purpose), read(err, purpose));
    } catch (IOException e) {
      throw new SchedulerException(
          options.name()
              + ": cannot run "
              + pbsnodes
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

  private int waitFor(Process process, String purpose) throws SchedulerException {
    try {
      if (process.waitFor(options.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
        return process.exitValue();
      }
      kill(process);
      throw new SchedulerException(
          options.name()
              + ": pbsnodes did not answer within "
              + options.timeout().toSeconds()
              + " s to "
              + purpose
              + " and was stopped; check that the PBS server "
              + options.server().orElse("(the client's default)")
              + " is up and reachable from the appliance, or raise timeoutSeconds");
    } catch (InterruptedException e) {
      kill(process);
      Thread.currentThread().interrupt();
      throw new SchedulerException(
          options.name() + ": stopped waiting for pbsnodes to " + purpose + ": interrupted", e);
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

  private String read(Path file, String purpose) throws IOException, SchedulerException {
    if (Files.size(file) > OUTPUT_LIMIT) {
      throw new SchedulerException(
          options.name()
              + ": pbsnodes wrote more than "
              + (OUTPUT_LIMIT >> 20)
              + " MiB when asked to "
              + purpose
              + "; that is not pbsnodes output the connector can read");
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
