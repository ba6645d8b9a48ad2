package io.bulwark.scheduler.slurm.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The Slurm connector's settings, converted once from {@link SlurmConfig}: the scheduler's name,
 * the cluster's {@code slurm.conf} (empty for the client's default), the folder of the client
 * commands and how long one call may take.
 */
record SlurmOptions(String name, Optional<Path> slurmConf, Path binDir, Duration timeout) {

  /**
   * Converts the configuration.
   *
   * @throws IllegalArgumentException if a path is not absolute
   */
  static SlurmOptions of(SlurmConfig config) {
    String name = config.name() == null || config.name().isBlank() ? "slurm" : config.name().trim();
    String conf = config.slurmConf() == null ? "" : config.slurmConf().trim();
    if (!conf.isEmpty() && !Path.of(conf).isAbsolute()) {
      throw new IllegalArgumentException(
          name
              + ": slurmConf \""
              + conf
              + "\" is not an absolute path; set the cluster's slurm.conf, e.g."
              + " /etc/slurm/slurm.conf, or leave it empty for the Slurm client's default");
    }
    String bin = config.binDir() == null ? "" : config.binDir().trim();
    Path binDir = Path.of(bin.isEmpty() ? "/usr/bin" : bin);
    if (!binDir.isAbsolute()) {
      throw new IllegalArgumentException(
          name
              + ": binDir \""
              + bin
              + "\" is not an absolute folder; set the folder that holds scontrol, e.g."
              + " /usr/bin");
    }
    int seconds = Math.max(1, Math.min(300, config.timeoutSeconds()));
    return new SlurmOptions(
        name,
        conf.isEmpty() ? Optional.empty() : Optional.of(Path.of(conf)),
        binDir,
        Duration.ofSeconds(seconds));
  }
}
