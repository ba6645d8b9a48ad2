package io.bulwark.security.tpm.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback TCP relay in front of a software TPM's command and control ports that records every
 * byte crossing it in either direction: what an interposer on the TPM bus would see. Stopped by
 * {@link #close}.
 */
final class RecordingRelay implements AutoCloseable {
  private final ServerSocket command;
  private final ServerSocket control;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final ByteArrayOutputStream recorded = new ByteArrayOutputStream();

  /** Relays to the swtpm TCTI ports {@code targetPort} (commands) and {@code targetPort + 1}. */
  RecordingRelay(int targetPort) throws IOException {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    ServerSocket first = null;
    ServerSocket second = null;
    for (int attempt = 0; attempt < 20 && second == null; attempt++) {
      first = new ServerSocket(0, 4, loopback);
      try {
        second = new ServerSocket(first.getLocalPort() + 1, 4, loopback);
      } catch (IOException taken) {
        first.close();
      }
    }
    if (second == null) {
      throw new IOException("no two consecutive free ports on the loopback interface");
    }
    this.command = first;
    this.control = second;
    accept(command, targetPort);
    accept(control, targetPort + 1);
  }

  /** The TCTI configuration string that reaches the TPM through the relay. */
  String tcti() {
    return "swtpm:host=127.0.0.1,port=" + command.getLocalPort();
  }

  /** Returns every byte relayed so far, both directions interleaved. */
  byte[] recorded() {
    synchronized (recorded) {
      return recorded.toByteArray();
    }
  }

  @Override
  public void close() throws IOException {
    command.close();
    control.close();
    for (Socket socket : sockets) {
      socket.close();
    }
  }

  private void accept(ServerSocket server, int targetPort) {
    Thread acceptor =
        new Thread(
            () -> {
              while (!server.isClosed()) {
                try {
                  Socket client = server.accept();
                  Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                  sockets.add(client);
                  sockets.add(target);
                  pump(client, target);
                  pump(target, client);
                } catch (IOException closed) {
                  return;
                }
              }
            },
            "relay-accept-" + server.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private void pump(Socket from, Socket to) {
    Thread pump =
        new Thread(
            () -> {
              byte[] buffer = new byte[8192];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                  synchronized (recorded) {
                    recorded.write(buffer, 0, n);
                  }
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException closed) {
                return;
              } finally {
                closeQuietly(to);
              }
            },
            "relay-pump");
    pump.setDaemon(true);
    pump.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      return;
    }
  }
}
