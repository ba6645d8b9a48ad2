package io.bulwark.testing.receivers;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RsyslogReceiverTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String XID =
      "<165>1 2024-05-06T07:08:09.123456Z gpu-node-7 bulwark 4242 XID79"
          + " [bulwark@32473 gpu=\"3\" node=\"gpu-node-7\" detail=\"fell \\\"off\\\" the bus\"]"
          + " GPU 3 fell off the bus";

  @TempDir Path dir;

  @Test
  void takesAnOctetCountedMessageOverTls() throws Exception {
    try (RsyslogReceiver syslog = RsyslogReceiver.startTls(dir)) {
      String protocol;
      String cipher;
      try (SSLSocket socket = tlsSocket(syslog, null, null)) {
        OutputStream out = socket.getOutputStream();
        out.write(octetCounted(XID));
        out.write(octetCounted("<14>1 - - bulwark - - - second"));
        out.flush();
        protocol = socket.getSession().getProtocol();
        cipher = socket.getSession().getCipherSuite();
      }

      List<Map<String, String>> parsed = syslog.awaitParsed(2, WAIT);

      assertThat(protocol).isEqualTo("TLSv1.3");
      assertThat(cipher).contains("_GCM_");
      assertThat(syslog.messages()).containsExactly(XID, "<14>1 - - bulwark - - - second");
      assertThat(parsed.get(0))
          .containsEntry("pri", "165")
          .containsEntry("facility", "20")
          .containsEntry("severity", "5")
          .containsEntry("version", "1")
          .containsEntry("timestamp", "2024-05-06T07:08:09.123456Z")
          .containsEntry("hostname", "gpu-node-7")
          .containsEntry("app-name", "bulwark")
          .containsEntry("procid", "4242")
          .containsEntry("msgid", "XID79")
          .containsEntry(
              "structured-data",
              "[bulwark@32473 gpu=\"3\" node=\"gpu-node-7\" detail=\"fell \\\"off\\\" the bus\"]")
          .containsEntry("msg", "GPU 3 fell off the bus")
          .containsEntry("raw", XID);
      assertThat(parsed.get(1))
          .containsEntry("structured-data", "-")
          .containsEntry("msg", "second");
    }
  }

  @Test
  void overTlsOffersTls12WithAesGcmButNotCbc() throws Exception {
    try (RsyslogReceiver syslog = RsyslogReceiver.startTls(dir)) {
      try (SSLSocket socket =
          tlsSocket(syslog, "TLSv1.2", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256")) {
        socket.getOutputStream().write(octetCounted("<13>1 - - tls12 - - - over TLS 1.2"));
        assertThat(socket.getSession().getProtocol()).isEqualTo("TLSv1.2");
      }
      assertThat(syslog.awaitParsed(1, WAIT).get(0)).containsEntry("app-name", "tls12");

      assertThatThrownBy(
              () -> tlsSocket(syslog, "TLSv1.2", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256").close())
          .isInstanceOf(SSLHandshakeException.class);
    }
  }

  @Test
  void takesOctetCountedAndNewlineFramedMessagesOverPlainTcp() throws Exception {
    try (RsyslogReceiver syslog = RsyslogReceiver.startPlainTcp(dir)) {
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), syslog.port())) {
        OutputStream out = socket.getOutputStream();
        out.write(octetCounted(XID));
        out.write(
            "<11>1 2024-05-06T07:08:10Z node bulwark - TCP - newline framed\n".getBytes(UTF_8));
      }

      List<Map<String, String>> parsed = syslog.awaitParsed(2, WAIT);

      assertThat(parsed.get(0)).containsEntry("msgid", "XID79").containsEntry("raw", XID);
      assertThat(parsed.get(1))
          .containsEntry("pri", "11")
          .containsEntry("facility", "1")
          .containsEntry("severity", "3")
          .containsEntry("msgid", "TCP")
          .containsEntry("msg", "newline framed");
      assertThatThrownBy(syslog::caPem)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("startTls");
    }
  }

  @Test
  void takesOneMessageADatagramOverUdp() throws Exception {
    try (RsyslogReceiver syslog = RsyslogReceiver.startUdp(dir)) {
      byte[] message = XID.getBytes(UTF_8);
      try (DatagramSocket socket = new DatagramSocket()) {
        socket.send(
            new DatagramPacket(
                message, message.length, InetAddress.getLoopbackAddress(), syslog.port()));
      }

      assertThat(syslog.awaitMessages(1, WAIT)).containsExactly(XID);
      assertThat(syslog.parsed().get(0))
          .containsEntry("app-name", "bulwark")
          .containsEntry("msgid", "XID79")
          .containsEntry("msg", "GPU 3 fell off the bus");
    }
  }

  @Test
  void twoReceiversRunSideBySide() throws Exception {
    try (RsyslogReceiver first = RsyslogReceiver.startPlainTcp(dir);
        RsyslogReceiver second = RsyslogReceiver.startPlainTcp(dir)) {
      assertThat(first.port()).isNotEqualTo(second.port());
      for (RsyslogReceiver syslog : List.of(first, second)) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), syslog.port())) {
          socket.getOutputStream().write(octetCounted("<14>1 - - to" + syslog.port() + " - - - x"));
        }
      }
      assertThat(first.awaitParsed(1, WAIT).get(0)).containsEntry("app-name", "to" + first.port());
      assertThat(second.awaitParsed(1, WAIT).get(0))
          .containsEntry("app-name", "to" + second.port());
    }
  }

  @Test
  void awaitingMoreThanArrivedFailsWithWhatDid() {
    try (RsyslogReceiver syslog = RsyslogReceiver.startUdp(dir)) {
      assertThatThrownBy(() -> syslog.awaitMessages(1, Duration.ofMillis(200)))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("Expected 1 syslog message(s) on UDP 127.0.0.1:" + syslog.port())
          .hasMessageContaining("got 0");
    }
  }

  private static SSLSocket tlsSocket(RsyslogReceiver syslog, String protocol, String cipherSuite)
      throws Exception {
    SSLSocket socket =
        (SSLSocket)
            syslog
                .certificates()
                .clientSslContext()
                .getSocketFactory()
                .createSocket(syslog.host(), syslog.port());
    SSLParameters parameters = socket.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    if (protocol != null) {
      parameters.setProtocols(new String[] {protocol});
      parameters.setCipherSuites(new String[] {cipherSuite});
    }
    socket.setSSLParameters(parameters);
    try {
      socket.startHandshake();
    } catch (Exception e) {
      socket.close();
      throw e;
    }
    return socket;
  }

  private static byte[] octetCounted(String message) {
    byte[] body = message.getBytes(UTF_8);
    byte[] prefix = (body.length + " ").getBytes(UTF_8);
    byte[] frame = new byte[prefix.length + body.length];
    System.arraycopy(prefix, 0, frame, 0, prefix.length);
    System.arraycopy(body, 0, frame, prefix.length, body.length);
    return frame;
  }
}
