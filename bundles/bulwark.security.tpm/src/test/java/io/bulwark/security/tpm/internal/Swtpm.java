package io.bulwark.security.tpm.internal;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A software TPM 2.0 ({@code swtpm socket}) run by a test: its own state folder (so its own seeds),
 * two consecutive free loopback ports (command, then control, as the swtpm TCTI expects), stopped
 * by {@link #close}. Tests that need it are skipped, with a message, when swtpm is not installed.
 */
final class Swtpm implements AutoCloseable {
  static final Path BINARY = Path.of("/usr/bin/swtpm");

  private final Process process;
  private final int port;

  private Swtpm(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts a TPM that is already started up (TPM2_Startup done by swtpm). */
  static Swtpm start(Path stateDir) throws IOException, InterruptedException {
    return start(stateDir, true);
  }

  /** Starts a TPM; without {@code startupClear} it answers TPM_RC_INITIALIZE until started. */
  static Swtpm start(Path stateDir, boolean startupClear) throws IOException, InterruptedException {
    assumeTrue(
        Files.isExecutable(BINARY),
        "swtpm is not installed (" + BINARY + "): install the swtpm package to run the TPM tests");
    for (int attempt = 0; attempt < 5; attempt++) {
      int server = freePortPair();
      int control = server + 1;
      List<String> command = new ArrayList<>();
      command.addAll(List.of(BINARY.toString(), "socket", "--tpm2"));
      command.addAll(List.of("--server", "type=tcp,port=" + server + ",bindaddr=127.0.0.1"));
      command.addAll(List.of("--ctrl", "type=tcp,port=" + control + ",bindaddr=127.0.0.1"));
      command.addAll(
          List.of("--flags", startupClear ? "not-need-init,startup-clear" : "not-need-init"));
      command.addAll(List.of("--tpmstate", "dir=" + stateDir));
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(stateDir.resolve("swtpm.log").toFile())
              .start();
      if (awaitListening(process, control)) {
        return new Swtpm(process, server);
      }
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
    throw new IllegalStateException("swtpm did not start; see " + stateDir.resolve("swtpm.log"));
  }

  /** The command port; the control port is the next one. */
  int port() {
    return port;
  }

  /** The TCTI configuration string that reaches this TPM. */
  String tcti() {
    return "swtpm:host=127.0.0.1,port=" + port;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
  }

  private static boolean awaitListening(Process process, int port) throws InterruptedException {
    for (int i = 0; i < 100 && process.isAlive(); i++) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return true;
      } catch (IOException notYet) {
        Thread.sleep(20);
      }
    }
    return false;
  }

  /** Returns a free port whose successor is free too: the swtpm TCTI controls on port + 1. */
  private static int freePortPair() throws IOException {
    for (int i = 0; i < 20; i++) {
      try (ServerSocket first = new ServerSocket(0)) {
        int port = first.getLocalPort();
        if (port < 65535) {
          try (ServerSocket second = new ServerSocket(port + 1)) {
            return port;
          } catch (IOException taken) {
            continue;
          }
        }
      }
    }
    throw new IOException("no two consecutive free ports on 127.0.0.1");
  }
}
