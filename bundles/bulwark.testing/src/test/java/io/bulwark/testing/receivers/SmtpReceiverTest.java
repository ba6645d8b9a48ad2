package io.bulwark.testing.receivers;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmtpReceiverTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path dir;

  @Test
  void deliversMailSentOverStartTlsWithAuthPlain() throws Exception {
    try (SmtpReceiver smtp = SmtpReceiver.start(dir);
        Session session = new Session(smtp)) {
      assertThat(session.command("EHLO client.example").lines())
          .contains("STARTTLS")
          .noneMatch(line -> line.startsWith("AUTH"));
      session.startTls(smtp.certificates().clientSslContext());
      assertThat(session.protocol()).isEqualTo("TLSv1.3");
      assertThat(session.command("EHLO client.example").lines()).contains("AUTH PLAIN LOGIN");
      String credentials = "\0" + smtp.user() + "\0" + smtp.password();
      session
          .command("AUTH PLAIN " + Base64.getEncoder().encodeToString(credentials.getBytes(UTF_8)))
          .expect(235);
      session.command("MAIL FROM:<alerts@bulwark.example>").expect(250);
      session.command("RCPT TO:<ops@customer.example>").expect(250);
      session.command("RCPT TO:<oncall@pager.example.net>").expect(250);
      session.command("DATA").expect(354);
      session
          .command(
              "From: Bulwark <alerts@bulwark.example>\r\n"
                  + "To: ops@customer.example\r\n"
                  + "Subject: GPU 3 on gpu-node-7 fell off the bus\r\n"
                  + "X-Authenticated: forged\r\n"
                  + "\r\n"
                  + "XID 79 on GPU 3.\r\n"
                  + "..a line that starts with a dot\r\n"
                  + ".")
          .expect(250);
      session.command("QUIT").expect(221);

      SmtpReceiver.Mail mail = smtp.awaitMail(1, WAIT).get(0);

      assertThat(mail.overTls()).isTrue();
      assertThat(mail.tlsCipher()).hasValueSatisfying(c -> assertThat(c).contains("TLS1.3", "GCM"));
      assertThat(mail.authenticatedUser()).hasValue(smtp.user());
      assertThat(mail.headers("X-Authenticated")).containsExactly(smtp.user());
      assertThat(mail.envelopeSender()).isEqualTo("alerts@bulwark.example");
      assertThat(mail.envelopeRecipients())
          .containsExactly("ops@customer.example", "oncall@pager.example.net");
      assertThat(mail.header("subject")).hasValue("GPU 3 on gpu-node-7 fell off the bus");
      assertThat(mail.body()).isEqualTo("XID 79 on GPU 3.\n.a line that starts with a dot\n");
      assertThat(smtp.messages()).hasSize(1);
      assertThat(smtp.messages().get(0)).contains("\nFrom: Bulwark <alerts@bulwark.example>\n");
      assertThat(smtp.last()).isEqualTo(mail);
    }
  }

  @Test
  void authLoginWorksAndAWrongPasswordIsRefused() throws Exception {
    try (SmtpReceiver smtp = SmtpReceiver.start(dir);
        Session session = new Session(smtp)) {
      session.command("EHLO client.example").expect(250);
      session
          .command("AUTH PLAIN " + base64("\0" + smtp.user() + "\0" + smtp.password()))
          .expect(503);
      session.startTls(smtp.certificates().clientSslContext());
      session.command("EHLO client.example").expect(250);
      session.command("AUTH PLAIN " + base64("\0" + smtp.user() + "\0wrong")).expect(535);
      session.command("AUTH LOGIN").expect(334);
      session.command(base64(smtp.user())).expect(334);
      session.command(base64(smtp.password())).expect(235);
      session.command("MAIL FROM:<>").expect(250);
      session.command("RCPT TO:<anyone@anywhere.invalid>").expect(250);
      session.command("DATA").expect(354);
      session.command("Subject: login\r\n\r\nbody\r\n.").expect(250);

      SmtpReceiver.Mail mail = smtp.awaitMail(1, WAIT).get(0);
      assertThat(mail.authenticatedUser()).hasValue(smtp.user());
      assertThat(mail.envelopeSender()).isEmpty();
      assertThat(mail.envelopeRecipients()).containsExactly("anyone@anywhere.invalid");
    }
  }

  @Test
  void withoutTlsRequiredPlainTextMailIsDeliveredAndMarkedSo() throws Exception {
    try (SmtpReceiver smtp = SmtpReceiver.start(dir);
        Session session = new Session(smtp)) {
      session.command("EHLO client.example").expect(250);
      session.command("MAIL FROM:<alerts@bulwark.example>").expect(250);
      session.command("RCPT TO:<ops@customer.example>").expect(250);
      session.command("DATA").expect(354);
      session.command("Subject: plain\r\nX-Received-Tls: forged\r\n\r\nbody\r\n.").expect(250);
      session.command("QUIT").expect(221);

      SmtpReceiver.Mail mail = smtp.awaitMail(1, WAIT).get(0);
      assertThat(mail.overTls()).isFalse();
      assertThat(mail.authenticatedUser()).isEmpty();
      assertThat(mail.header("Subject")).hasValue("plain");
    }
  }

  @Test
  void whenTlsIsRequiredPlainTextMailIsRefused() throws Exception {
    try (SmtpReceiver smtp = SmtpReceiver.startRequiringTls(dir);
        Session session = new Session(smtp)) {
      assertThat(smtp.requiresTls()).isTrue();
      session.command("EHLO client.example").expect(250);
      Reply refused = session.command("MAIL FROM:<alerts@bulwark.example>");
      assertThat(refused.code()).isEqualTo(530);
      assertThat(refused.lines()).anyMatch(line -> line.contains("STARTTLS"));

      session.startTls(smtp.certificates().clientSslContext());
      session.command("EHLO client.example").expect(250);
      session.command("MAIL FROM:<alerts@bulwark.example>").expect(250);
      session.command("RCPT TO:<ops@customer.example>").expect(250);
      session.command("DATA").expect(354);
      session.command("Subject: after STARTTLS\r\n\r\nbody\r\n.").expect(250);

      SmtpReceiver.Mail mail = smtp.awaitMail(1, WAIT).get(0);
      assertThat(mail.overTls()).isTrue();
      assertThat(mail.authenticatedUser()).isEmpty();
      assertThat(smtp.messages()).hasSize(1);
    }
  }

  @Test
  void awaitingMoreThanArrivedFailsWithEximsLog() {
    try (SmtpReceiver smtp = SmtpReceiver.start(dir)) {
      assertThatThrownBy(() -> smtp.awaitMessages(1, Duration.ofMillis(200)))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("got 0")
          .hasMessageContaining("daemon started");
    }
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(UTF_8));
  }

  /** One SMTP reply: its code and the text of each line. */
  record Reply(int code, List<String> lines) {
    Reply expect(int expected) {
      assertThat(code).as("SMTP reply %s", lines).isEqualTo(expected);
      return this;
    }
  }

  /** An SMTP session spoken by hand, one command and reply at a time. */
  static final class Session implements AutoCloseable {
    private final SmtpReceiver smtp;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    Session(SmtpReceiver smtp) throws IOException {
      this.smtp = smtp;
      socket = new Socket(InetAddress.getLoopbackAddress(), smtp.port());
      socket.setSoTimeout(10_000);
      in = socket.getInputStream();
      out = socket.getOutputStream();
      read().expect(220);
    }

    Reply command(String line) throws IOException {
      out.write((line + "\r\n").getBytes(UTF_8));
      out.flush();
      return read();
    }

    void startTls(SSLContext context) throws IOException {
      command("STARTTLS").expect(220);
      SSLSocket tls =
          (SSLSocket)
              context.getSocketFactory().createSocket(socket, smtp.host(), smtp.port(), true);
      SSLParameters parameters = tls.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      tls.setSSLParameters(parameters);
      tls.startHandshake();
      socket = tls;
      in = tls.getInputStream();
      out = tls.getOutputStream();
    }

    String protocol() {
      return ((SSLSocket) socket).getSession().getProtocol();
    }

    private Reply read() throws IOException {
      List<String> lines = new ArrayList<>();
      while (true) {
        String line = readLine();
        if (line.length() < 4) {
          throw new IOException("Not an SMTP reply line: " + line);
        }
        lines.add(line.substring(4));
        if (line.charAt(3) == ' ') {
          return new Reply(Integer.parseInt(line.substring(0, 3)), lines);
        }
      }
    }

    private String readLine() throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      while (true) {
        int b = in.read();
        if (b < 0) {
          throw new IOException("The server closed the connection after: " + line);
        }
        if (b == '\n') {
          String text = line.toString(UTF_8);
          return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        }
        line.write(b);
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
