package io.bulwark.testing.receivers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A real rsyslogd on {@code 127.0.0.1} that takes syslog messages over TLS (RFC 5425), plain TCP or
 * UDP, for tests of code that sends them. It runs in the foreground as a child process with only
 * its own configuration: no {@code /dev/log}, no kernel log, nothing written outside its folder.
 * TCP and TLS accept both octet-counted framing (RFC 6587/RFC 5425: {@code LEN SP MSG}) and
 * newline-terminated messages.
 *
 * <p>Every message is written twice: {@code messages.log} holds each message exactly as received,
 * one a line (rsyslog's {@code %rawmsg%}), and {@code messages.jsonl} holds the fields rsyslog's
 * RFC 5424 parser found, one JSON object a line; {@link #messages()} and {@link #parsed()} read
 * them back. As rsyslog does by default, control characters inside a message arrive escaped as
 * {@code #ooo} (octal), so a newline reads {@code #012}.
 *
 * <pre>{@code
 * try (RsyslogReceiver syslog = RsyslogReceiver.startTls(tempDir)) {
 *   sendOverTls("127.0.0.1", syslog.port(), syslog.caPem());
 *   Map<String, String> message = syslog.awaitParsed(1, Duration.ofSeconds(5)).get(0);
 *   assertThat(message.get("app-name")).isEqualTo("bulwark");
 * }
 * }</pre>
 */
public final class RsyslogReceiver implements AutoCloseable {
  /** How a receiver takes messages. */
  public enum Transport {
    /** RFC 5425: TLS over TCP, octet-counted framing. */
    TLS,
    /** Plain TCP, octet-counted or newline-terminated framing. */
    TCP,
    /** One message a UDP datagram (RFC 5426). */
    UDP
  }

  /**
   * The keys of each {@link #parsed()} entry, as RFC 5424 names the parts: {@code pri}, {@code
   * facility}, {@code severity} (numbers, as text), {@code version}, {@code timestamp} (RFC 3339),
   * {@code hostname}, {@code app-name}, {@code procid}, {@code msgid}, {@code structured-data}
   * ({@code -} where there is none), {@code msg}, and {@code raw} (the whole message as received).
   */
  public static final List<String> FIELDS =
      List.of(
          "pri",
          "facility",
          "severity",
          "version",
          "timestamp",
          "hostname",
          "app-name",
          "procid",
          "msgid",
          "structured-data",
          "msg",
          "raw");

  private static final String INSTALL_HINT = "apt-get install rsyslog rsyslog-gnutls";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
  private static final int START_ATTEMPTS = 3;

  private final Transport transport;
  private final Path directory;
  private final TestCertificates certificates;
  private final Process process;
  private final int port;

  private RsyslogReceiver(
      Transport transport,
      Path directory,
      TestCertificates certificates,
      Process process,
      int port) {
    this.transport = transport;
    this.directory = directory;
    this.certificates = certificates;
    this.process = process;
    this.port = port;
  }

  /**
   * Starts a receiver for RFC 5425 syslog over TLS on a free loopback port, with a new throwaway CA
   * and server certificate (see {@link TestCertificates}) in a folder of its own under {@code dir}.
   * It offers TLS 1.2 and 1.3 with AES-GCM and ECDHE on P-256/P-384 only, and asks no client
   * certificate.
   *
   * @throws IllegalStateException where rsyslogd or its TLS driver is missing or does not start;
   *     the message carries rsyslogd's own output
   */
  public static RsyslogReceiver startTls(Path dir) {
    return startTls(dir, null);
  }

  /**
   * Starts a receiver for RFC 5425 syslog over TLS as {@link #startTls(Path)} does, serving the
   * server certificate of {@code certificates}, so that several receivers can share one CA.
   */
  public static RsyslogReceiver startTls(Path dir, TestCertificates certificates) {
    return start(Transport.TLS, dir, certificates);
  }

  /**
   * Starts a receiver for syslog over plain TCP on a free loopback port, in a folder of its own
   * under {@code dir}.
   *
   * @throws IllegalStateException where rsyslogd is missing or does not start
   */
  public static RsyslogReceiver startPlainTcp(Path dir) {
    return start(Transport.TCP, dir, null);
  }

  /**
   * Starts a receiver for syslog over UDP on a free loopback port, in a folder of its own under
   * {@code dir}.
   *
   * @throws IllegalStateException where rsyslogd is missing or does not start
   */
  public static RsyslogReceiver startUdp(Path dir) {
    return start(Transport.UDP, dir, null);
  }

  private static RsyslogReceiver start(
      Transport transport, Path dir, TestCertificates givenCertificates) {
    Path rsyslogd = Processes.findExecutable("rsyslogd", INSTALL_HINT);
    Path directory;
    try {
      Files.createDirectories(dir);
      directory =
          Files.createTempDirectory(
              dir.toAbsolutePath(), "rsyslog-" + transport.name().toLowerCase(Locale.ROOT) + "-");
    } catch (IOException e) {
      throw new UncheckedIOException("Could not make a folder for rsyslogd under " + dir, e);
    }
    TestCertificates certificates = givenCertificates;
    if (transport == Transport.TLS && certificates == null) {
      certificates = TestCertificates.create(directory.resolve("certs"));
    }
    String failures = "";
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      Path attemptDir = directory.resolve("run-" + attempt);
      try {
        Files.createDirectories(attemptDir);
      } catch (IOException e) {
        throw new UncheckedIOException("Could not make " + attemptDir, e);
      }
      int udpPort = transport == Transport.UDP ? Processes.freeUdpPort() : 0;
      Path config = attemptDir.resolve("rsyslog.conf");
      try {
        Files.writeString(config, config(transport, attemptDir, certificates, udpPort));
      } catch (IOException e) {
        throw new UncheckedIOException("Could not write " + config, e);
      }
      Processes.run(
          attemptDir, START_TIMEOUT, List.of(rsyslogd.toString(), "-N1", "-f", config.toString()));
      Started started = launch(rsyslogd, transport, attemptDir, config, udpPort);
      if (started.port > 0) {
        return new RsyslogReceiver(
            transport, attemptDir, certificates, started.process, started.port);
      }
      failures += "\n--- attempt " + attempt + " ---\n" + started.failure;
      if (!started.portTaken) {
        break;
      }
    }
    throw new IllegalStateException(
        "rsyslogd did not start a "
            + transport
            + " receiver on 127.0.0.1 (if its modules are missing: "
            + INSTALL_HINT
            + "); its output:"
            + failures);
  }

  private record Started(Process process, int port, String failure, boolean portTaken) {}

  private static Started launch(
      Path rsyslogd, Transport transport, Path dir, Path config, int udpPort) {
    Path stdout = dir.resolve("rsyslogd.stdout");
    Path stderr = dir.resolve("rsyslogd.stderr");
    Process process;
    try {
      process =
          new ProcessBuilder(
                  rsyslogd.toString(),
                  "-n",
                  "-f",
                  config.toString(),
                  "-i",
                  dir.resolve("rsyslogd.pid").toString())
              .directory(dir.toFile())
              .redirectOutput(stdout.toFile())
              .redirectError(stderr.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run " + rsyslogd, e);
    }
    Path internal = dir.resolve("rsyslogd-internal.log");
    Path portFile = dir.resolve("port");
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      String errors = Processes.tail(stderr, 100_000);
      boolean portTaken =
          errors.contains("Address already in use")
              || errors.contains("Could not create udp listener");
      boolean failed =
          errors.contains("could not load module")
              || errors.contains("activation of module")
              || errors.toLowerCase(Locale.ROOT).contains("could not create");
      if (portTaken || failed || !process.isAlive()) {
        Processes.stop(process, Duration.ofSeconds(2));
        return new Started(null, 0, output(dir), portTaken);
      }
      boolean running = Processes.contains(internal, "] start");
      int port = transport == Transport.UDP ? udpPort : readPort(portFile);
      if (running && port > 0) {
        return new Started(process, port, "", false);
      }
      if (System.nanoTime() > deadline) {
        Processes.stop(process, Duration.ofSeconds(2));
        return new Started(
            null,
            0,
            "not listening after " + START_TIMEOUT.toSeconds() + " s\n" + output(dir),
            false);
      }
      Processes.pause();
    }
  }

  private static int readPort(Path portFile) {
    try {
      String text = Files.isRegularFile(portFile) ? Files.readString(portFile).trim() : "";
      return text.isEmpty() ? 0 : Integer.parseInt(text);
    } catch (IOException | NumberFormatException e) {
      return 0;
    }
  }

  private static String output(Path dir) {
    return "rsyslogd stderr:\n"
        + Processes.tail(dir.resolve("rsyslogd.stderr"), 6000)
        + "\nrsyslogd internal log:\n"
        + Processes.tail(dir.resolve("rsyslogd-internal.log"), 6000);
  }

  private static String config(
      Transport transport, Path dir, TestCertificates certificates, int udpPort) {
    String d = Processes.configPath(dir);
    StringBuilder conf = new StringBuilder();
    conf.append("# Written by RsyslogReceiver for one test; it reads and writes only ")
        .append(d)
        .append(".\n");
    conf.append("global(\n")
        .append("  workDirectory=\"")
        .append(d)
        .append("\"\n")
        .append("  processInternalMessages=\"on\"\n")
        .append("  maxMessageSize=\"64k\"\n")
        .append("  net.enableDNS=\"off\"\n")
        .append("  localHostName=\"bulwark-test-receiver\"");
    if (transport == Transport.TLS) {
      conf.append("\n  defaultNetstreamDriverCAFile=\"")
          .append(Processes.configPath(certificates.caPem()))
          .append("\"\n  defaultNetstreamDriverCertFile=\"")
          .append(Processes.configPath(certificates.serverCertPem()))
          .append("\"\n  defaultNetstreamDriverKeyFile=\"")
          .append(Processes.configPath(certificates.serverKeyPem()))
          .append('"');
    }
    conf.append(")\n\n");
    switch (transport) {
      case TLS ->
          conf.append(
                  "module(load=\"imtcp\" streamDriver.name=\"gtls\" streamDriver.mode=\"1\""
                      + " streamDriver.authMode=\"anon\"\n       gnutlsPriorityString=\"")
              .append(Processes.GNUTLS_PRIORITY)
              .append("\")\n");
      case TCP -> conf.append("module(load=\"imtcp\")\n");
      case UDP -> conf.append("module(load=\"imudp\")\n");
    }
    conf.append(
        """

        template(name="bulwarkRaw" type="string" string="%rawmsg%\\n")
        template(name="bulwarkFields" type="list" option.jsonf="on") {
          property(outname="pri" name="pri" format="jsonf")
          property(outname="facility" name="syslogfacility" format="jsonf")
          property(outname="severity" name="syslogseverity" format="jsonf")
          property(outname="version" name="protocol-version" format="jsonf")
          property(outname="timestamp" name="timereported" dateFormat="rfc3339" format="jsonf")
          property(outname="hostname" name="hostname" format="jsonf")
          property(outname="app-name" name="app-name" format="jsonf")
          property(outname="procid" name="procid" format="jsonf")
          property(outname="msgid" name="msgid" format="jsonf")
          property(outname="structured-data" name="structured-data" format="jsonf")
          property(outname="msg" name="msg" format="jsonf")
          property(outname="raw" name="rawmsg" format="jsonf")
        }

        """);
    conf.append("ruleset(name=\"received\") {\n")
        .append("  action(type=\"omfile\" file=\"")
        .append(d)
        .append("/messages.log\" template=\"bulwarkRaw\")\n")
        .append("  action(type=\"omfile\" file=\"")
        .append(d)
        .append("/messages.jsonl\" template=\"bulwarkFields\")\n")
        .append("}\n\n");
    if (transport == Transport.UDP) {
      conf.append("input(type=\"imudp\" address=\"127.0.0.1\" port=\"")
          .append(udpPort)
          .append("\" ruleset=\"received\")\n");
    } else {
      conf.append("input(type=\"imtcp\" address=\"127.0.0.1\" port=\"0\" listenPortFileName=\"")
          .append(d)
          .append("/port\" ruleset=\"received\")\n");
    }
    conf.append("\n# rsyslogd's own messages (start, errors) go here, not to the system log.\n")
        .append("action(type=\"omfile\" file=\"")
        .append(d)
        .append("/rsyslogd-internal.log\")\n");
    return conf.toString();
  }

  /** How this receiver takes messages. */
  public Transport transport() {
    return transport;
  }

  /** The address it listens on: always {@code 127.0.0.1}. */
  public String host() {
    return "127.0.0.1";
  }

  /** The loopback port it listens on (TCP, or UDP for {@link #startUdp}). */
  public int port() {
    return port;
  }

  /** The folder this receiver runs in: its configuration, logs and received messages. */
  public Path directory() {
    return directory;
  }

  /**
   * The certificates the TLS receiver serves.
   *
   * @throws IllegalStateException for a plain TCP or UDP receiver, which has none
   */
  public TestCertificates certificates() {
    if (certificates == null) {
      throw new IllegalStateException(
          "This is a " + transport + " receiver: it has no certificates; use startTls for TLS");
    }
    return certificates;
  }

  /**
   * The CA certificate (PEM) the client under test must trust to accept this receiver.
   *
   * @throws IllegalStateException for a plain TCP or UDP receiver, which has none
   */
  public Path caPem() {
    return certificates().caPem();
  }

  /** Every message received so far, in arrival order, each exactly as it came (without framing). */
  public List<String> messages() {
    return parsed().stream().map(fields -> fields.get("raw")).toList();
  }

  /**
   * Every message received so far, in arrival order, as the fields rsyslog parsed from it; the keys
   * are those of {@link #FIELDS}. A message that is not RFC 5424 shows what rsyslog's fallback RFC
   * 3164 parser made of it, with {@code version} {@code 0}.
   */
  public List<Map<String, String>> parsed() {
    Path file = directory.resolve("messages.jsonl");
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    String text;
    try {
      text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read the received messages in " + file, e);
    }
    List<Map<String, String>> messages = new ArrayList<>();
    int start = 0;
    for (int end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      String line = text.substring(start, end);
      start = end + 1;
      if (!line.isBlank()) {
        messages.add(Collections.unmodifiableMap(FlatJson.parse(line)));
      }
    }
    return List.copyOf(messages);
  }

  /**
   * Waits until at least {@code count} messages have arrived and returns all of them as received.
   *
   * @throws AssertionError where fewer arrived within {@code timeout}; the message lists those that
   *     did and rsyslogd's own log
   */
  public List<String> awaitMessages(int count, Duration timeout) {
    return awaitParsed(count, timeout).stream().map(fields -> fields.get("raw")).toList();
  }

  /**
   * Waits until at least {@code count} messages have arrived and returns all of them as parsed
   * fields (see {@link #parsed()}).
   *
   * @throws AssertionError where fewer arrived within {@code timeout}
   */
  public List<Map<String, String>> awaitParsed(int count, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<Map<String, String>> parsed = parsed();
      if (parsed.size() >= count) {
        return parsed;
      }
      if (System.nanoTime() > deadline || !process.isAlive()) {
        throw new AssertionError(
            "Expected "
                + count
                + " syslog message(s) on "
                + transport
                + " 127.0.0.1:"
                + port
                + " within "
                + timeout.toMillis()
                + " ms, got "
                + parsed.size()
                + (process.isAlive() ? "" : " (rsyslogd has exited)")
                + ": "
                + parsed
                + "\n"
                + diagnostics());
      }
      Processes.pause();
    }
  }

  /**
   * Rsyslogd's stderr and its own log (start, TLS handshake errors): for a failing test's report.
   */
  public String diagnostics() {
    return output(directory);
  }

  /** Stops rsyslogd and waits until it has exited; the folder with what it received stays. */
  @Override
  public void close() {
    Processes.stop(process, Duration.ofSeconds(5));
  }

  /** Parses one flat JSON object of string values, as rsyslog's {@code jsonf} templates write. */
  static final class FlatJson {
    private final String text;
    private int at;

    private FlatJson(String text) {
      this.text = text;
    }

    static Map<String, String> parse(String line) {
      FlatJson json = new FlatJson(line);
      try {
        return json.object();
      } catch (RuntimeException e) {
        throw new IllegalStateException(
            "rsyslogd wrote a line that is not a flat JSON object (at " + json.at + "): " + line,
            e);
      }
    }

    private Map<String, String> object() {
      Map<String, String> fields = new LinkedHashMap<>();
      expect('{');
      skipSpace();
      if (peek() == '}') {
        at++;
        return fields;
      }
      while (true) {
        skipSpace();
        String key = string();
        skipSpace();
        expect(':');
        skipSpace();
        fields.put(key, string());
        skipSpace();
        char next = text.charAt(at++);
        if (next == '}') {
          return fields;
        }
        if (next != ',') {
          throw new IllegalArgumentException("expected , or } but found " + next);
        }
      }
    }

    private String string() {
      expect('"');
      StringBuilder value = new StringBuilder();
      while (true) {
        char c = text.charAt(at++);
        if (c == '"') {
          return value.toString();
        }
        if (c != '\\') {
          value.append(c);
          continue;
        }
        char escaped = text.charAt(at++);
        switch (escaped) {
          case 'n' -> value.append('\n');
          case 'r' -> value.append('\r');
          case 't' -> value.append('\t');
          case 'b' -> value.append('\b');
          case 'f' -> value.append('\f');
          case 'u' -> {
            value.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
            at += 4;
          }
          default -> value.append(escaped);
        }
      }
    }

    private void expect(char c) {
      if (text.charAt(at) != c) {
        throw new IllegalArgumentException("expected " + c + " but found " + text.charAt(at));
      }
      at++;
    }

    private char peek() {
      return text.charAt(at);
    }

    private void skipSpace() {
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
        at++;
      }
    }
  }
}
