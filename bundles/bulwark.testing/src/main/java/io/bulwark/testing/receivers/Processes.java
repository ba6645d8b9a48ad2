package io.bulwark.testing.receivers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/** Helpers the receivers share: finding, running and stopping the daemons, reading their logs. */
final class Processes {
  /** GnuTLS priorities both daemons serve: TLS 1.2/1.3, AES-GCM, ECDHE on P-256/P-384, ECDSA. */
  static final String GNUTLS_PRIORITY =
      "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-256-GCM:+AES-128-GCM"
          + ":-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:-GROUP-ALL:+GROUP-SECP256R1:+GROUP-SECP384R1";

  private static final Pattern SAFE_PATH = Pattern.compile("[A-Za-z0-9._/+@=,:-]+");
  private static final List<String> SYSTEM_DIRS = List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin");

  private Processes() {}

  /**
   * Finds an executable on the PATH or in the system directories; throws, naming the package to
   * install, where there is none.
   */
  static Path findExecutable(String name, String installHint) {
    List<String> dirs = new ArrayList<>();
    String pathVariable = System.getenv("PATH");
    if (pathVariable != null) {
      dirs.addAll(List.of(pathVariable.split(":")));
    }
    dirs.addAll(SYSTEM_DIRS);
    for (String dir : dirs) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        name
            + " is not installed (looked on the PATH and in "
            + String.join(", ", SYSTEM_DIRS)
            + "); these tests need it: "
            + installHint);
  }

  /**
   * Runs a command to completion in {@code dir} and returns its output (stdout and stderr
   * together); throws with that output when it fails or runs past the timeout.
   */
  static String run(Path dir, Duration timeout, List<String> command) {
    Process process;
    Path output;
    try {
      output = Files.createTempFile(dir, "command-", ".out");
      process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run " + String.join(" ", command), e);
    }
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(
            String.join(" ", command)
                + " did not finish within "
                + timeout.toMillis()
                + " ms; its output so far:\n"
                + tail(output, 4000));
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running " + command.get(0), e);
    }
    String text = tail(output, 16000);
    deleteQuietly(output);
    if (process.exitValue() != 0) {
      throw new IllegalStateException(
          String.join(" ", command)
              + " failed with exit status "
              + process.exitValue()
              + ":\n"
              + text);
    }
    return text;
  }

  /**
   * Stops a daemon and every process it started: SIGTERM first, SIGKILL for whatever is still there
   * after {@code grace}; returns once they are gone.
   */
  static void stop(Process process, Duration grace) {
    List<ProcessHandle> all = new ArrayList<>(process.descendants().toList());
    all.add(0, process.toHandle());
    all.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + grace.toNanos();
    for (ProcessHandle handle : all) {
      awaitExit(handle, deadline);
    }
    all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    long killDeadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    for (ProcessHandle handle : all) {
      awaitExit(handle, killDeadline);
    }
  }

  private static void awaitExit(ProcessHandle handle, long deadlineNanos) {
    long left = deadlineNanos - System.nanoTime();
    if (left <= 0 || !handle.isAlive()) {
      return;
    }
    try {
      handle.onExit().get(left, TimeUnit.NANOSECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // Still running: the caller kills it.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A loopback TCP port that was free a moment ago. */
  static int freeTcpPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not find a free TCP port on 127.0.0.1", e);
    }
  }

  /** A loopback UDP port that was free a moment ago. */
  static int freeUdpPort() {
    try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not find a free UDP port on 127.0.0.1", e);
    }
  }

  /**
   * The absolute form of a path that goes into a daemon's configuration; refuses characters those
   * configuration languages would quote or expand.
   */
  static String configPath(Path path) {
    String text = path.toAbsolutePath().normalize().toString();
    if (!SAFE_PATH.matcher(text).matches()) {
      throw new IllegalArgumentException(
          "The path "
              + text
              + " has characters that cannot go into a daemon's configuration unquoted; use a"
              + " directory whose path has only letters, digits and ._/+@=,:- (a JUnit @TempDir"
              + " does)");
    }
    return text;
  }

  /** The last {@code maxChars} characters of a text file; empty where it does not exist. */
  static String tail(Path file, int maxChars) {
    try {
      if (!Files.isRegularFile(file)) {
        return "";
      }
      String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
      return text.length() <= maxChars ? text : "..." + text.substring(text.length() - maxChars);
    } catch (IOException e) {
      return "(could not read " + file + ": " + e.getMessage() + ")";
    }
  }

  /** Whether the text file exists and contains {@code text}. */
  static boolean contains(Path file, String text) {
    return tail(file, Integer.MAX_VALUE).contains(text);
  }

  /** Sleeps a little between two polls. */
  static void pause() {
    try {
      Thread.sleep(10);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for a receiver", e);
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A leftover output file in a temporary folder does no harm.
    }
  }
}
