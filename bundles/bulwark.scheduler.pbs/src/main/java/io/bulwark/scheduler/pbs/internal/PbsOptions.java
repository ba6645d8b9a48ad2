package io.bulwark.scheduler.pbs.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The PBS connector's settings, converted once from {@link PbsConfig}: the scheduler's name, the
 * pbsnodes dialect, the pbsnodes executable, the server to ask (empty for the client's default) and
 * how long one call may take.
 */
record PbsOptions(
    String name, PbsFlavour flavour, Path pbsnodes, Optional<String> server, Duration timeout) {

  /**
   * Converts the configuration.
   *
   * @throws IllegalArgumentException if the flavour is unknown, the folder is not absolute or the
   *     server name could be taken for an option
   */
  static PbsOptions of(PbsConfig config) {
    String name = config.name() == null || config.name().isBlank() ? "pbs" : config.name().trim();
    PbsFlavour flavour = PbsFlavour.of(config.flavour());
    String binDir = config.binDir() == null ? "" : config.binDir().trim();
    Path bin = Path.of(binDir.isEmpty() ? "/opt/pbs/bin" : binDir);
    if (!bin.isAbsolute()) {
      throw new IllegalArgumentException(
          name
              + ": binDir \""
              + binDir
              + "\" is not an absolute folder; set the folder that holds"
              + " pbsnodes, e.g. /opt/pbs/bin");
    }
    String server = config.server() == null ? "" : config.server().trim();
    if (server.startsWith("-") || server.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
      throw new IllegalArgumentException(
          name
              + ": server \""
              + server
              + "\" is not a PBS server name; set the host name (and"
              + " :port) of the PBS server, or leave it empty for the default server");
    }
    int seconds = Math.max(1, Math.min(300, config.timeoutSeconds()));
    return new PbsOptions(
        name,
        flavour,
        bin.resolve("pbsnodes"),
        server.isEmpty() ? Optional.empty() : Optional.of(server),
        Duration.ofSeconds(seconds));
  }
}
