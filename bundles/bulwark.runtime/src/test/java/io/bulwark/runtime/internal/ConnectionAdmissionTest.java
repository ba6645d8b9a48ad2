package io.bulwark.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.system.ConnectionCounts;
import io.bulwark.api.system.ConnectionLimits;
import io.bulwark.api.system.ListenerGuard;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.transport.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connections are admitted or refused as a real Vert.x listener accepts them, over loopback: the
 * per-address and overall caps of a guarded port, and the open-file reserve of every port. A
 * refused connection is closed by the server before anything is read from it.
 */
class ConnectionAdmissionTest {
  private final List<Socket> sockets = new ArrayList<>();
  private Vertx vertx;

  @AfterEach
  void close() throws Exception {
    for (Socket s : sockets) {
      s.close();
    }
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aGuardedPortAdmitsUpToItsCapsPerAddressAndOverallAndCountsWhatItRefuses() throws Exception {
    ConnectionAdmission admission = admission(new OpenFiles(-1, 0));
    int port = listen();
    ListenerGuard guard = admission.guard(port, new ConnectionLimits(3, 2));
    assertThat(admission.status().state()).as("before any refusal").isEqualTo(SubsystemState.UP);

    Socket a1 = connect("127.0.0.1", port);
    Socket a2 = connect("127.0.0.1", port);
    Socket a3 = connect("127.0.0.1", port);
    assertThat(closedByServer(a3)).as("third connection from one address").isTrue();
    assertThat(closedByServer(a1)).isFalse();
    Socket b1 = connect("127.0.0.2", port);
    b1.getOutputStream().write('x');
    assertThat(closedByServer(b1)).as("another address within the overall cap").isFalse();
    await(
        () -> ((ListenerCap) guard).openWithoutHandshake() == 0,
        "the connection that sent a byte counts as past its handshake");
    Socket c1 = connect("127.0.0.3", port);
    assertThat(closedByServer(c1)).as("over the overall cap, nothing to evict").isTrue();

    ConnectionCounts counts = guard.counts();
    assertThat(counts.open()).isEqualTo(3);
    assertThat(counts.sources()).isEqualTo(2);
    assertThat(counts.refusedPerSource()).isEqualTo(1);
    assertThat(counts.refusedOverCap()).isEqualTo(1);
    SubsystemStatus status = admission.status();
    assertThat(status.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(status.summary()).contains("refused");
    assertThat(status.measurements()).containsEntry("bulwark_connections_refused_total", 2.0);

    // when a client closes, its place is free again
    a1.close();
    a2.close();
    await(() -> guard.counts().open() == 1, "the closed connections are no longer counted");
    assertThat(closedByServer(connect("127.0.0.1", port))).isFalse();

    // when the guard is lifted, the port admits as any other
    guard.close();
    for (int i = 0; i < 4; i++) {
      assertThat(closedByServer(connect("127.0.0.4", port))).isFalse();
    }
  }

  @Test
  void aFullShareClosesTheConnectionIdleLongestWithoutAHandshakeAndTheConsoleKeepsItsOwn()
      throws Exception {
    ConnectionAdmission admission = admission(new OpenFiles(-1, 0));
    int port = listen();
    ListenerCap cap = (ListenerCap) admission.guard(port, new ConnectionLimits(16, 16));
    assertThat(cap.withoutHandshakeShare()).isEqualTo(12);

    // given someone who logged in (on this plain port, the bytes sent are the handshake) and a
    // flood that fills the share of connections without a handshake
    List<Socket> flood = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      flood.add(connect("127.0.0.2", port));
      int admitted = i + 1;
      await(() -> cap.openWithoutHandshake() == admitted, "flood connection " + admitted);
    }
    Socket login = connect("127.0.0.3", port);
    login.getOutputStream().write('x');
    await(() -> cap.counts().open() == 12 && cap.openWithoutHandshake() == 11, "the login");
    flood.add(connect("127.0.0.2", port));
    await(() -> cap.openWithoutHandshake() == 12, "the share full");

    // when two more idle connections come
    flood.add(connect("127.0.0.4", port));
    flood.add(connect("127.0.0.4", port));
    await(() -> cap.evicted() == 2, "two connections closed to make room");

    // then the two idle longest were closed, the login and the newer ones stay
    assertThat(closedByServer(flood.get(0))).isTrue();
    assertThat(closedByServer(flood.get(1))).isTrue();
    assertThat(closedByServer(flood.get(2))).isFalse();
    assertThat(closedByServer(login)).as("past its handshake").isFalse();
    assertThat(closedByServer(flood.get(13))).isFalse();

    // and the console takes the places kept for known clients without closing anything
    for (int i = 0; i < 3; i++) {
      assertThat(closedByServer(connect("127.0.0.1", port))).as("console " + i).isFalse();
    }
    assertThat(cap.openKnown()).isEqualTo(3);
    assertThat(cap.evicted()).isEqualTo(2);
    SubsystemStatus status = admission.status();
    assertThat(status.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(status.summary()).contains("closed to make room").contains("127.0.0.2");
    assertThat(status.measurements())
        .containsEntry("bulwark_connections_evicted_total", 2.0)
        .containsEntry("bulwark_connections_open_known_clients", 3.0)
        .containsEntry("bulwark_connections_open_without_handshake", 12.0);
  }

  @Test
  void everyPortRefusesNewConnectionsOnceOnlyTheReserveOfFileDescriptorsIsLeft() throws Exception {
    OpenFiles files = OpenFiles.ofThisProcess(0);
    int openNow = files.open();
    OpenFiles tight = new OpenFiles(openNow + 64, 40);
    ConnectionAdmission admission = admission(tight);
    int port = listen();
    tight.sample();

    int refused = 0;
    for (int i = 0; i < 40; i++) {
      if (closedByServer(connect("127.0.0.1", port))) {
        refused++;
      }
    }
    // Each admitted connection costs two descriptors here (the client's end is in this process).
    assertThat(refused).as("connections refused for the file reserve").isGreaterThan(20);
    assertThat(refused).as("connections admitted before the reserve").isLessThan(40);
    SubsystemStatus status = admission.status();
    assertThat(status.state()).isEqualTo(SubsystemState.DEGRADED);
    assertThat(status.summary()).contains("files open").contains("keeps 40");
    assertThat(status.action()).contains("LimitNOFILE");
  }

  @Test
  void theLimitIsReadFromProcLimitsAndTheDefaultReserveIsATenthWithinBounds(@TempDir Path dir)
      throws IOException {
    Path limits = dir.resolve("limits");
    Files.writeString(
        limits,
        "Limit                     Soft Limit           Hard Limit           Units\n"
            + "Max processes             95425                95425                processes\n"
            + "Max open files            20000                20000                files\n");
    assertThat(OpenFiles.readLimit(limits)).isEqualTo(20000);
    assertThat(OpenFiles.readLimit(dir.resolve("absent"))).isEqualTo(-1);
    assertThat(OpenFiles.defaultReserve(20000)).isEqualTo(2000);
    assertThat(OpenFiles.defaultReserve(1024)).isEqualTo(256);
    assertThat(OpenFiles.defaultReserve(300)).isEqualTo(150);
    assertThat(new OpenFiles(-1, 0).roomForConnection()).as("unknown limit").isTrue();
    Files.createDirectories(dir.resolve("fd"));
    for (int i = 0; i < 5; i++) {
      Files.writeString(dir.resolve("fd/" + i), "");
    }
    assertThat(OpenFiles.count(dir.resolve("fd"), 100))
        .as("entries less the listing's own")
        .isEqualTo(4);
  }

  private ConnectionAdmission admission(OpenFiles files) {
    ConnectionAdmission admission = new ConnectionAdmission(files, Clock.systemUTC());
    vertx =
        Vertx.builder()
            .withTransport(new GuardedTransport(Transport.NIO, new AcceptGate(admission)))
            .build();
    return admission;
  }

  private int listen() throws Exception {
    NetServer server =
        vertx
            .createNetServer()
            .connectHandler(socket -> socket.handler(buffer -> {}))
            .listen(0, "0.0.0.0")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    return server.actualPort();
  }

  private Socket connect(String from, int port) throws IOException {
    Socket s = new Socket();
    s.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    sockets.add(s);
    return s;
  }

  /** Returns true if the server closes the connection within half a second. */
  private static boolean closedByServer(Socket s) throws IOException {
    s.setSoTimeout(500);
    InputStream in = s.getInputStream();
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException stillOpen) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(20);
    }
  }
}
