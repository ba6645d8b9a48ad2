package io.bulwark.notify.smtp.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.ClientTls;
import io.bulwark.notify.api.DeliveryException;
import io.bulwark.notify.api.Notification;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Speaks SMTP (RFC 5321) to the relay for each mail: EHLO, STARTTLS (RFC 3207) and EHLO again, or
 * TLS from the start; AUTH PLAIN (RFC 4616) when a user is set; MAIL, RCPT for each recipient, DATA
 * with the message dot-stuffed; QUIT. A 4xx answer, a refused connection or a timeout is retried
 * later; a 5xx answer to the message itself is given up (the relay will never take it). A relay
 * that does not offer STARTTLS is refused: mail goes only encrypted.
 */
final class SmtpSender implements ChannelSender {
  static final int TIMEOUT_MILLIS = 10_000;
  private static final DateTimeFormatter DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

  record Settings(
      String channel,
      String host,
      int port,
      boolean startTls,
      String from,
      List<String> to,
      String user,
      String subjectPrefix,
      int maxPerMail,
      String appliance,
      String externalUrl) {}

  private final Settings s;
  private final ClientTls tls;
  private final byte[] password;

  SmtpSender(Settings settings, ClientTls tls, byte[] password) {
    this.s = settings;
    this.tls = tls;
    this.password = password;
  }

  @Override
  public int maxBatch() {
    return s.maxPerMail();
  }

  @Override
  public void close() {
    if (password != null) {
      Arrays.fill(password, (byte) 0);
    }
  }

  @Override
  public void send(List<Notification> batch) throws DeliveryException {
    String where = s.host() + ":" + s.port();
    Socket socket = null;
    try {
      if (s.startTls()) {
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress(s.host(), s.port()), TIMEOUT_MILLIS);
        plain.setSoTimeout(TIMEOUT_MILLIS);
        socket = plain;
        Session session = new Session(plain);
        session.expect(220, "greeting");
        List<String> ehlo = session.command("EHLO " + helo(), 250, "EHLO");
        if (ehlo.stream().noneMatch(l -> l.toUpperCase(Locale.ROOT).startsWith("STARTTLS"))) {
          throw new DeliveryException(
              "the mail relay "
                  + where
                  + " (channel "
                  + s.channel()
                  + ") does not offer STARTTLS; Bulwark sends mail only encrypted: enable TLS on"
                  + " the relay or use security=tls on its TLS port",
              null);
        }
        session.command("STARTTLS", 220, "STARTTLS");
        socket = tls.upgrade(plain, s.host(), s.port());
      } else {
        socket = tls.connect(s.host(), s.port(), TIMEOUT_MILLIS);
      }
      Session session = new Session(socket);
      if (!s.startTls()) {
        session.expect(220, "greeting");
      }
      List<String> ehlo = session.command("EHLO " + helo(), 250, "EHLO");
      if (!s.user().isEmpty()) {
        if (ehlo.stream().noneMatch(l -> l.toUpperCase(Locale.ROOT).matches("AUTH[ =].*PLAIN.*"))) {
          throw new DeliveryException(
              "the mail relay " + where + " does not offer AUTH PLAIN inside TLS", null);
        }
        session.command("AUTH PLAIN " + plainToken(), 235, "AUTH (check the user and password)");
      }
      session.command("MAIL FROM:<" + s.from() + ">", 250, "MAIL FROM");
      for (String r : s.to()) {
        session.command("RCPT TO:<" + r + ">", 250, "RCPT TO " + r);
      }
      session.command("DATA", 354, "DATA");
      session.data(message(batch));
      session.expect(250, "the message");
      try {
        session.command("QUIT", 221, "QUIT");
      } catch (IOException | DeliveryException e) {
        // the message is accepted; a relay that drops the line at QUIT changes nothing
      }
    } catch (IOException e) {
      throw new DeliveryException(
          "the mail relay " + where + " (channel " + s.channel() + "): " + describe(e), e);
    } finally {
      if (socket != null) {
        try {
          socket.close();
        } catch (IOException e) {
          // closing
        }
      }
    }
  }

  private String helo() {
    String h = s.appliance().replaceAll("[^A-Za-z0-9.-]", "-");
    return h.isEmpty() ? "bulwark" : h;
  }

  private String plainToken() {
    byte[] user = s.user().getBytes(StandardCharsets.UTF_8);
    byte[] token = new byte[2 + user.length + password.length];
    System.arraycopy(user, 0, token, 1, user.length);
    System.arraycopy(password, 0, token, 2 + user.length, password.length);
    try {
      return Base64.getEncoder().encodeToString(token);
    } finally {
      Arrays.fill(token, (byte) 0);
    }
  }

  /** Returns the mail: headers and a plain-text body (UTF-8, base64). */
  byte[] message(List<Notification> batch) {
    String subject;
    if (batch.size() == 1) {
      subject = batch.get(0).subject();
    } else {
      Map<String, Integer> counts = new TreeMap<>();
      batch.forEach(n -> counts.merge(n.event().name().toLowerCase(Locale.ROOT), 1, Integer::sum));
      List<String> parts = new ArrayList<>();
      counts.forEach((k, v) -> parts.add(v + " " + k));
      subject = batch.size() + " findings: " + String.join(", ", parts);
    }
    subject = (s.subjectPrefix().isEmpty() ? "" : s.subjectPrefix() + " ") + subject;
    StringBuilder body = new StringBuilder();
    for (Notification n : batch) {
      Finding f = n.finding();
      body.append(n.subject()).append("\r\n");
      body.append("  Event:       ")
          .append(n.event().name().toLowerCase(Locale.ROOT))
          .append(" at ");
      body.append(n.at()).append("\r\n");
      body.append("  Node:        ").append(f.node().value());
      if (f.gpu() >= 0) {
        body.append(" GPU ").append(f.gpu());
        if (!f.gpuUuid().isEmpty()) {
          body.append(" (").append(f.gpuUuid()).append(')');
        }
      }
      body.append("\r\n");
      n.nodeLabels()
          .forEach((k, v) -> body.append("  ").append(k).append(": ").append(v).append("\r\n"));
      body.append("  Since:       ").append(f.firstSeen()).append("\r\n");
      if (f.resolvedAt() != null) {
        body.append("  Resolved:    ").append(f.resolvedAt()).append("\r\n");
      }
      if (!f.recommendedAction().isEmpty() && n.firing()) {
        body.append("  Recommended: ").append(f.recommendedAction()).append("\r\n");
      }
      new TreeMap<>(f.evidence())
          .forEach((k, v) -> body.append("  ").append(k).append(" = ").append(v).append("\r\n"));
      body.append("  Finding:     ").append(f.id()).append("\r\n\r\n");
    }
    if (!s.externalUrl().isEmpty()) {
      body.append("Open the findings: ").append(s.externalUrl()).append("/#/findings\r\n");
    }
    body.append("-- \r\nBulwark on ").append(s.appliance()).append("\r\n");
    StringBuilder m = new StringBuilder();
    m.append("Date: ").append(DATE.format(ZonedDateTime.now(ZoneOffset.UTC))).append("\r\n");
    m.append("From: Bulwark <").append(s.from()).append(">\r\n");
    m.append("To: ").append(String.join(", ", s.to())).append("\r\n");
    m.append("Subject: ").append(encodedWord(subject)).append("\r\n");
    m.append("Message-ID: <").append(UUID.randomUUID()).append('@').append(helo()).append(">\r\n");
    m.append("MIME-Version: 1.0\r\n");
    m.append("Content-Type: text/plain; charset=UTF-8\r\n");
    m.append("Content-Transfer-Encoding: base64\r\n");
    m.append("X-Bulwark-Findings: ").append(batch.size()).append("\r\n\r\n");
    String encoded =
        Base64.getMimeEncoder(76, "\r\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(body.toString().getBytes(StandardCharsets.UTF_8));
    m.append(encoded).append("\r\n");
    return m.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** A header text as one RFC 2047 encoded word when it is not plain ASCII, cut to fit. */
  static String encodedWord(String text) {
    String t = text.replaceAll("[\\r\\n]+", " ");
    if (t.chars().allMatch(c -> c >= 32 && c < 127) && t.length() <= 900) {
      return t;
    }
    byte[] utf8 = t.getBytes(StandardCharsets.UTF_8);
    if (utf8.length > 600) {
      utf8 = Arrays.copyOf(utf8, 600);
    }
    return "=?UTF-8?B?" + Base64.getEncoder().encodeToString(utf8) + "?=";
  }

  private static String describe(IOException e) {
    if (e instanceof java.net.ConnectException) {
      return "connection refused; is the relay running and listening there?";
    }
    if (e instanceof java.net.SocketTimeoutException) {
      return "no answer within " + TIMEOUT_MILLIS / 1000 + " s";
    }
    if (e instanceof javax.net.ssl.SSLException) {
      return "TLS failed: " + e.getMessage() + " (check the CA certificate and the relay's name)";
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  /** One SMTP conversation on a socket: commands and multi-line replies. */
  private final class Session {
    private final InputStream in;
    private final OutputStream out;

    Session(Socket socket) throws IOException {
      this.in = new BufferedInputStream(socket.getInputStream());
      this.out = socket.getOutputStream();
    }

    List<String> command(String line, int expected, String what)
        throws IOException, DeliveryException {
      out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return expect(expected, what);
    }

    /** Reads a reply; returns its lines' texts (after the code) on {@code expected}. */
    List<String> expect(int expected, String what) throws IOException, DeliveryException {
      List<String> texts = new ArrayList<>();
      while (true) {
        String line = readLine();
        if (line.length() < 3) {
          throw new IOException("the relay answered '" + line + "', not SMTP");
        }
        int code;
        try {
          code = Integer.parseInt(line.substring(0, 3));
        } catch (NumberFormatException e) {
          throw new IOException("the relay answered '" + line + "', not SMTP");
        }
        texts.add(line.length() > 4 ? line.substring(4) : "");
        if (line.length() > 3 && line.charAt(3) == '-') {
          continue;
        }
        if (code != expected) {
          boolean permanent = code >= 500 && what.equals("the message");
          throw new DeliveryException(
              "the mail relay "
                  + s.host()
                  + ":"
                  + s.port()
                  + " (channel "
                  + s.channel()
                  + ") refused "
                  + what
                  + ": "
                  + String.join(" ", texts).strip()
                  + " ("
                  + code
                  + ")",
              null,
              !permanent);
        }
        return texts;
      }
    }

    void data(byte[] message) throws IOException {
      ByteArrayOutputStream b = new ByteArrayOutputStream(message.length + 64);
      boolean lineStart = true;
      for (byte c : message) {
        if (lineStart && c == '.') {
          b.write('.');
        }
        b.write(c);
        lineStart = c == '\n';
      }
      if (!lineStart) {
        b.write('\r');
        b.write('\n');
      }
      b.write(".\r\n".getBytes(StandardCharsets.US_ASCII));
      out.write(b.toByteArray());
      out.flush();
    }

    private String readLine() throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream(128);
      int c;
      while ((c = in.read()) >= 0) {
        if (c == '\n') {
          break;
        }
        if (c != '\r') {
          line.write(c);
        }
        if (line.size() > 4096) {
          throw new IOException("the relay sent a line longer than 4 KiB");
        }
      }
      if (c < 0 && line.size() == 0) {
        throw new IOException("the relay closed the connection");
      }
      return line.toString(StandardCharsets.US_ASCII);
    }
  }
}
