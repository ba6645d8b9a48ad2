package io.bulwark.security.internal;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the system's OpenSSL command line ({@value #OPENSSL}) as a real TLS peer and PEM source for
 * the tests, each run bounded by {@code timeout}.
 */
final class Openssl {
  static final String OPENSSL = "/usr/bin/openssl";

  private Openssl() {}

  /** The exit status and the combined output of one run. */
  record Run(int exitStatus, String output) {}

  static boolean available() {
    return Files.isExecutable(Path.of(OPENSSL)) && Files.isExecutable(Path.of("/usr/bin/timeout"));
  }

  /** Runs {@code openssl args...} with stdin from /dev/null, killed after 10 s. */
  static Run run(Path workingFolder, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("/usr/bin/timeout", "10", OPENSSL));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command)
            .directory(workingFolder.toFile())
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    try {
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        throw new IllegalStateException("openssl " + String.join(" ", args) + " did not finish");
      }
      return new Run(
          process.exitValue(),
          new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    } finally {
      process.destroyForcibly();
    }
  }
}
