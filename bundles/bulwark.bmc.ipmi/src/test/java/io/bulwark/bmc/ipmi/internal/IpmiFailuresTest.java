package io.bulwark.bmc.ipmi.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.testing.FipsProviders;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How the driver fails where no proper BMC answers, against tiny UDP test doubles on loopback (no
 * BMC logic at all): a socket that never answers, one that answers garbage, and a port where
 * nothing listens. Each ends in a {@link BmcException} of the right kind within the configured
 * timeout, never an unchecked exception.
 */
class IpmiFailuresTest {
  private static final IpmiOptions OPTIONS =
      new IpmiOptions(
          Duration.ofMillis(300), 2, Duration.ofSeconds(1), Duration.ofSeconds(1), true);
  private final IpmiDriver driver = new IpmiDriver(OPTIONS, CipherSuite.SUITE_17);

  @BeforeAll
  static void providers() {
    FipsProviders.install();
  }

  private static BmcEndpoint at(int port) {
    return new BmcEndpoint(BmcProtocol.IPMI, "127.0.0.1", port, "machine.bmc.x", "");
  }

  private static BmcCredentials credentials() {
    return new BmcCredentials("admin", "Bmc-Pass-42".toCharArray());
  }

  /**
   * A test double: a UDP socket that reads what it gets and answers with {@code reply} (or not).
   */
  private static final class UdpDouble implements AutoCloseable {
    final DatagramSocket socket;
    final List<byte[]> received = new CopyOnWriteArrayList<>();
    private final Thread thread;

    UdpDouble(byte[] reply) throws SocketException {
      socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
      thread =
          new Thread(
              () -> {
                byte[] buf = new byte[2048];
                while (!socket.isClosed()) {
                  DatagramPacket p = new DatagramPacket(buf, buf.length);
                  try {
                    socket.receive(p);
                    received.add(Arrays.copyOf(p.getData(), p.getLength()));
                    if (reply != null) {
                      socket.send(
                          new DatagramPacket(reply, reply.length, p.getAddress(), p.getPort()));
                    }
                  } catch (java.io.IOException e) {
                    return;
                  }
                }
              });
      thread.setDaemon(true);
      thread.start();
    }

    int port() {
      return socket.getLocalPort();
    }

    @Override
    public void close() throws InterruptedException {
      socket.close();
      thread.join(1000);
    }
  }

  @Test
  void aBmcThatNeverAnswersTimesOutWithinTheConfiguredTriesResendingTheSameBytes()
      throws Exception {
    try (UdpDouble silent = new UdpDouble(null)) {
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> driver.connect(at(silent.port()), credentials()))
          .isInstanceOf(BmcException.class)
          .hasMessageContaining("BMC 127.0.0.1:" + silent.port() + " did not answer")
          .hasMessageContaining("within 900 ms (3 tries over UDP)")
          .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.TIMEOUT))
          .satisfies(e -> assertThat(((BmcException) e).retryable()).isTrue());
      long millis = (System.nanoTime() - t0) / 1_000_000;
      assertThat(millis).isBetween(850L, 2_000L);
      assertThat(silent.received).hasSize(3);
      assertThat(silent.received.get(1)).isEqualTo(silent.received.get(0));
      assertThat(silent.received.get(2)).isEqualTo(silent.received.get(0));
    }
  }

  @Test
  void aMalformedAnswerIsAProtocolFailure() throws Exception {
    byte[] garbage = {0x06, 0x00, (byte) 0xff, 0x07, 0x00, 0x01, 0x02};
    try (UdpDouble liar = new UdpDouble(garbage)) {
      assertThatThrownBy(() -> driver.connect(at(liar.port()), credentials()))
          .isInstanceOf(BmcException.class)
          .hasMessageContaining("answered the Get Channel Authentication Capabilities request")
          .hasMessageContaining("malformed packet")
          .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.PROTOCOL));
    }
    try (UdpDouble noise = new UdpDouble("not IPMI at all".getBytes())) {
      assertThatThrownBy(() -> driver.connect(at(noise.port()), credentials()))
          .isInstanceOf(BmcException.class)
          .hasMessageContaining("not an RMCP packet")
          .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.PROTOCOL));
    }
  }

  @Test
  void aPortWhereNothingListensIsUnreachable() throws Exception {
    int port;
    try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    assertThatThrownBy(() -> driver.connect(at(port), credentials()))
        .isInstanceOf(BmcException.class)
        .satisfies(
            e ->
                assertThat(((BmcException) e).kind())
                    .as(e.getMessage())
                    .isIn(Kind.UNREACHABLE, Kind.TIMEOUT))
        .hasMessageContaining("BMC 127.0.0.1:" + port);
  }

  @Test
  void thePasswordCopyIsClearedEvenWhenTheLoginFails() throws Exception {
    char[] password = "Bmc-Pass-42".toCharArray();
    try (UdpDouble silent = new UdpDouble(null);
        RmcpSession session =
            new RmcpSession(
                new LanChannel("double", "127.0.0.1", silent.port(), Duration.ofMillis(100), 0))) {
      assertThatThrownBy(
              () ->
                  RakpHandshake.establish(
                      session,
                      CipherSuite.SUITE_17,
                      java.security.SecureRandom.getInstance("DEFAULT", "BCFIPS"),
                      "admin",
                      password))
          .isInstanceOf(BmcException.class)
          .hasMessageContaining("Open Session");
    }
    assertThat(password).containsOnly('\0');
  }
}
