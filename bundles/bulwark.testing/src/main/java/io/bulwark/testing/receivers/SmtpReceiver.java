package io.bulwark.testing.receivers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real exim SMTP server on {@code 127.0.0.1} for tests of code that sends mail. It advertises
 * STARTTLS with a throwaway certificate (see {@link TestCertificates}), offering TLS 1.2 and 1.3
 * with AES-GCM and ECDHE on P-256/P-384 only; after TLS it advertises AUTH PLAIN and LOGIN for one
 * user, {@link #user()} with the random {@link #password()}. It takes any sender and any recipient
 * at any domain, makes no DNS lookups, and delivers every message at once, as one file in a maildir
 * inside its folder, whatever the number of recipients.
 *
 * <p>On delivery exim adds {@code Return-path}, {@code Envelope-to} (every recipient) and {@code
 * Received} headers, plus {@code X-Received-Tls: <exim's $tls_in_cipher>} where the message came
 * over TLS and {@code X-Authenticated: <user>} where the client authenticated; a client's own
 * headers of those two names are dropped, so they can be trusted. {@link Mail} reads them back.
 *
 * <p>Exim refuses to run a daemon for anyone but root, so the tests that use this receiver run as
 * root. With a configuration of its own ({@code -C}) exim gives up root at once and runs as its
 * system user (Debian-exim): this receiver hands that user the folders exim writes (spool, logs,
 * maildir) and a copy of the TLS key, keeps the configuration root's (exim insists), and opens the
 * temporary folder it is given to other users for search (mode {@code --x}) so exim can reach it.
 *
 * <pre>{@code
 * try (SmtpReceiver smtp = SmtpReceiver.startRequiringTls(tempDir)) {
 *   sendAlert("127.0.0.1", smtp.port(), smtp.caPem(), smtp.user(), smtp.password());
 *   SmtpReceiver.Mail mail = smtp.awaitMail(1, Duration.ofSeconds(5)).get(0);
 *   assertThat(mail.overTls()).isTrue();
 * }
 * }</pre>
 */
public final class SmtpReceiver implements AutoCloseable {
  private static final String INSTALL_HINT = "apt-get install exim4-daemon-light";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
  private static final int START_ATTEMPTS = 3;

  /** The folders exim's user owns; the configuration stays root's, as exim insists. */
  private static final List<String> WRITTEN_BY_EXIM = List.of("spool", "log", "mail", "tls");

  private static final Pattern MAILDIR_NAME = Pattern.compile("(\\d+)\\.M(\\d+)P(\\d+)\\..*");

  private final Path directory;
  private final TestCertificates certificates;
  private final boolean requireTls;
  private final String user;
  private final String password;
  private final Process process;
  private final int port;

  private SmtpReceiver(
      Path directory,
      TestCertificates certificates,
      boolean requireTls,
      String user,
      String password,
      Process process,
      int port) {
    this.directory = directory;
    this.certificates = certificates;
    this.requireTls = requireTls;
    this.user = user;
    this.password = password;
    this.process = process;
    this.port = port;
  }

  /**
   * Starts a receiver on a free loopback port, with a new throwaway CA and server certificate, in a
   * folder of its own under {@code dir}. STARTTLS is offered, not required: a client may send mail
   * in plain text, unauthenticated.
   *
   * @throws IllegalStateException where exim is missing, is not run as root or does not start; the
   *     message carries exim's own output
   */
  public static SmtpReceiver start(Path dir) {
    return start(dir, null, false);
  }

  /**
   * Starts a receiver as {@link #start(Path)} does that refuses {@code MAIL FROM} with {@code 530
   * 5.7.0} until the client has done STARTTLS, so a test can show that a client does not fall back
   * to plain text.
   */
  public static SmtpReceiver startRequiringTls(Path dir) {
    return start(dir, null, true);
  }

  /**
   * Starts a receiver as {@link #start(Path)} does that serves the server certificate of {@code
   * certificates} (so that several receivers can share one CA) and, where {@code requireTls},
   * refuses {@code MAIL FROM} before STARTTLS.
   */
  public static SmtpReceiver start(Path dir, TestCertificates certificates, boolean requireTls) {
    Path exim = findExim();
    Path directory;
    try {
      Files.createDirectories(dir);
      openForSearch(dir.toAbsolutePath());
      directory = Files.createTempDirectory(dir.toAbsolutePath(), "exim-");
      Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx--x--x"));
    } catch (IOException e) {
      throw new UncheckedIOException("Could not make a folder for exim under " + dir, e);
    }
    TestCertificates certs =
        certificates != null ? certificates : TestCertificates.create(directory.resolve("certs"));
    String user = "bulwark";
    byte[] secret = new byte[12];
    new SecureRandom().nextBytes(secret);
    String password = HexFormat.of().formatHex(secret);

    String failures = "";
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      Path runDir = directory.resolve("run-" + attempt);
      int port = Processes.freeTcpPort();
      Path config = runDir.resolve("exim.conf");
      try {
        for (String sub : WRITTEN_BY_EXIM) {
          Files.createDirectories(runDir.resolve(sub));
        }
        Files.copy(
            certs.serverCertPem(),
            runDir.resolve("tls/server.pem"),
            StandardCopyOption.REPLACE_EXISTING);
        Files.copy(
            certs.serverKeyPem(),
            runDir.resolve("tls/server-key.pem"),
            StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(config, config(runDir, requireTls, user, password));
        // Exim re-reads its configuration as its own user when it delivers.
        Files.setPosixFilePermissions(runDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-r--r--"));
      } catch (IOException e) {
        throw new UncheckedIOException("Could not prepare exim's folder " + runDir, e);
      }
      handOverToExim(exim, runDir, config);
      Started started = launch(exim, runDir, config, port);
      if (started.process != null) {
        return new SmtpReceiver(runDir, certs, requireTls, user, password, started.process, port);
      }
      failures += "\n--- attempt " + attempt + " (port " + port + ") ---\n" + started.failure;
      if (!started.portTaken) {
        break;
      }
    }
    throw new IllegalStateException("exim did not start an SMTP receiver on 127.0.0.1:" + failures);
  }

  private static Path findExim() {
    try {
      return Processes.findExecutable("exim4", INSTALL_HINT);
    } catch (IllegalStateException e) {
      try {
        return Processes.findExecutable("exim", INSTALL_HINT);
      } catch (IllegalStateException again) {
        throw e;
      }
    }
  }

  /**
   * Gives the folders exim writes, and its TLS key and certificate, to exim's user, which exim
   * switches to; the key stays readable by that user alone.
   */
  private static void handOverToExim(Path exim, Path runDir, Path config) {
    String settings =
        Processes.run(
            runDir,
            START_TIMEOUT,
            List.of(exim.toString(), "-C", config.toString(), "-bP", "exim_user", "exim_group"));
    String eximUser = setting(settings, "exim_user");
    String eximGroup = setting(settings, "exim_group");
    try {
      UserPrincipalLookupService lookup = runDir.getFileSystem().getUserPrincipalLookupService();
      UserPrincipal owner = lookup.lookupPrincipalByName(eximUser);
      GroupPrincipal group = lookup.lookupPrincipalByGroupName(eximGroup);
      for (String sub : WRITTEN_BY_EXIM) {
        try (Stream<Path> paths = Files.walk(runDir.resolve(sub))) {
          for (Path path : paths.toList()) {
            PosixFileAttributeView view =
                Files.getFileAttributeView(path, PosixFileAttributeView.class);
            view.setOwner(owner);
            view.setGroup(group);
          }
        }
      }
      Files.setPosixFilePermissions(
          runDir.resolve("tls/server-key.pem"), PosixFilePermissions.fromString("rw-------"));
    } catch (IOException e) {
      throw new IllegalStateException(
          "Could not hand "
              + runDir
              + " to exim's user "
              + eximUser
              + " ("
              + e
              + "); exim drops root for that user, so the tests that start it must run as root",
          e);
    }
  }

  private static String setting(String settings, String name) {
    Matcher matcher =
        Pattern.compile("^" + name + "\\s*=\\s*(\\S+)\\s*$", Pattern.MULTILINE).matcher(settings);
    if (!matcher.find()) {
      throw new IllegalStateException(
          "exim -bP did not name its " + name + "; it printed:\n" + settings);
    }
    return matcher.group(1);
  }

  /** Lets exim's user pass through {@code dir} and every folder above it. */
  private static void openForSearch(Path dir) throws IOException {
    Set<PosixFilePermission> permissions = EnumSet.copyOf(Files.getPosixFilePermissions(dir));
    if (permissions.addAll(
        List.of(PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_EXECUTE))) {
      Files.setPosixFilePermissions(dir, permissions);
    }
    for (Path parent = dir.getParent(); parent != null; parent = parent.getParent()) {
      if (!Files.getPosixFilePermissions(parent).contains(PosixFilePermission.OTHERS_EXECUTE)) {
        throw new IllegalStateException(
            "exim runs as its own user, which cannot reach "
                + dir
                + " because "
                + parent
                + " is closed to other users ("
                + PosixFilePermissions.toString(Files.getPosixFilePermissions(parent))
                + "); start the receiver in a folder whose parents others may search, such as a"
                + " JUnit @TempDir under /tmp");
      }
    }
  }

  private record Started(Process process, String failure, boolean portTaken) {}

  private static Started launch(Path exim, Path runDir, Path config, int port) {
    Path stdout = runDir.resolve("exim.stdout");
    Path stderr = runDir.resolve("exim.stderr");
    Process process;
    try {
      ProcessBuilder builder =
          new ProcessBuilder(
                  exim.toString(), "-bdf", "-C", config.toString(), "-oX", Integer.toString(port))
              .directory(runDir.toFile())
              .redirectOutput(stdout.toFile())
              .redirectError(stderr.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
      builder.environment().clear();
      builder.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not run " + exim, e);
    }
    Path mainlog = runDir.resolve("log/mainlog");
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      if (!process.isAlive()) {
        Processes.stop(process, Duration.ofSeconds(2));
        String output = output(runDir);
        return new Started(null, output + hint(output), output.contains("Address already in use"));
      }
      if (Processes.contains(mainlog, "daemon started")) {
        return new Started(process, "", false);
      }
      if (System.nanoTime() > deadline) {
        Processes.stop(process, Duration.ofSeconds(2));
        return new Started(
            null,
            "not listening after " + START_TIMEOUT.toSeconds() + " s\n" + output(runDir),
            false);
      }
      Processes.pause();
    }
  }

  private static String hint(String output) {
    if (output.contains("permission denied")) {
      return "\nexim starts a daemon only for root: run these tests as root.";
    }
    return "";
  }

  private static String output(Path runDir) {
    return "exim stderr:\n"
        + Processes.tail(runDir.resolve("exim.stderr"), 4000)
        + "\nexim mainlog:\n"
        + Processes.tail(runDir.resolve("log/mainlog"), 6000)
        + "\nexim paniclog:\n"
        + Processes.tail(runDir.resolve("log/paniclog"), 4000);
  }

  private static String config(Path runDir, boolean requireTls, String user, String password) {
    String d = Processes.configPath(runDir);
    String mailAcl =
        requireTls
            ? """
            acl_smtp_mail = require_tls
            """
            : "";
    String requireTlsAcl =
        requireTls
            ? """
            require_tls:
              deny
                message = 530 5.7.0 TLS is required: send STARTTLS before MAIL FROM
                condition = ${if def:tls_in_cipher {no}{yes}}
              accept

            """
            : "";
    return """
        # Written by SmtpReceiver for one test; it reads and writes only %1$s.
        primary_hostname = localhost
        qualify_domain = localhost
        spool_directory = %1$s/spool
        log_file_path = %1$s/log/%%slog
        pid_file_path = %1$s/exim.pid
        local_interfaces = <; 127.0.0.1
        daemon_startup_retries = 0
        keep_environment =

        # No DNS, no ident, no callouts: nothing leaves the machine.
        host_lookup =
        rfc1413_hosts =
        rfc1413_query_timeout = 0s

        # Deliver every message at once, however busy.
        queue_only = false
        smtp_accept_queue_per_connection = 0
        check_spool_space = 0
        check_log_space = 0
        message_size_limit = 64M
        pipelining_connect_advertise_hosts =

        tls_advertise_hosts = *
        tls_certificate = %1$s/tls/server.pem
        tls_privatekey = %1$s/tls/server-key.pem
        tls_require_ciphers = %2$s

        acl_smtp_rcpt = accept
        %3$s
        log_selector = +smtp_connection +tls_cipher +received_recipients +smtp_protocol_error \\
          +smtp_syntax_error +incoming_port

        begin acl

        %4$s
        begin routers

        everyone:
          driver = accept
          transport = maildir
          no_verify

        begin transports

        maildir:
          driver = appendfile
          directory = %1$s/mail
          maildir_format
          create_directory
          user = $exim_uid
          group = $exim_gid
          mode = 0644
          batch_max = 10000
          envelope_to_add
          return_path_add
          headers_remove = X-Received-Tls:X-Authenticated
          headers_add = ${if def:tls_in_cipher {X-Received-Tls: $tls_in_cipher}}
          headers_add = ${if def:authenticated_id {X-Authenticated: $authenticated_id}}

        begin authenticators

        plain:
          driver = plaintext
          public_name = PLAIN
          server_prompts = :
          server_condition = ${if and {{eq{$auth2}{%5$s}}{eq{$auth3}{%6$s}}}}
          server_set_id = $auth2
          server_advertise_condition = ${if def:tls_in_cipher}

        login:
          driver = plaintext
          public_name = LOGIN
          server_prompts = Username:: : Password::
          server_condition = ${if and {{eq{$auth1}{%5$s}}{eq{$auth2}{%6$s}}}}
          server_set_id = $auth1
          server_advertise_condition = ${if def:tls_in_cipher}
        """
        .formatted(d, Processes.GNUTLS_PRIORITY, mailAcl, requireTlsAcl, user, password);
  }

  /** The address it listens on: always {@code 127.0.0.1}. */
  public String host() {
    return "127.0.0.1";
  }

  /** The loopback port it listens on for SMTP (STARTTLS, not implicit TLS). */
  public int port() {
    return port;
  }

  /** Whether it refuses {@code MAIL FROM} before STARTTLS. */
  public boolean requiresTls() {
    return requireTls;
  }

  /** The folder this receiver runs in: its configuration, logs, spool and the delivered mail. */
  public Path directory() {
    return directory;
  }

  /** The certificates it serves on STARTTLS. */
  public TestCertificates certificates() {
    return certificates;
  }

  /** The CA certificate (PEM) the client under test must trust to accept this receiver. */
  public Path caPem() {
    return certificates.caPem();
  }

  /** The one user name AUTH accepts. */
  public String user() {
    return user;
  }

  /** The password AUTH accepts for {@link #user()}: random, new for each receiver. */
  public String password() {
    return password;
  }

  /**
   * Every message delivered so far, oldest first, as exim stored it: the RFC 5322 headers (with
   * those exim adds, see the class comment) and body, lines ending in LF, dot-stuffing undone.
   */
  public List<String> messages() {
    return mail().stream().map(Mail::raw).toList();
  }

  /** Every message delivered so far, oldest first, with its headers parsed. */
  public List<Mail> mail() {
    Path newMail = directory.resolve("mail/new");
    if (!Files.isDirectory(newMail)) {
      return List.of();
    }
    List<Path> files;
    try (Stream<Path> listing = Files.list(newMail)) {
      files = new ArrayList<>(listing.filter(Files::isRegularFile).toList());
    } catch (IOException e) {
      throw new UncheckedIOException("Could not list the delivered mail in " + newMail, e);
    }
    files.sort(Comparator.comparing(SmtpReceiver::deliveryOrder));
    List<Mail> mail = new ArrayList<>();
    for (Path file : files) {
      try {
        mail.add(new Mail(new String(Files.readAllBytes(file), StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException("Could not read the delivered message " + file, e);
      }
    }
    return List.copyOf(mail);
  }

  private static String deliveryOrder(Path file) {
    String name = file.getFileName().toString();
    Matcher matcher = MAILDIR_NAME.matcher(name);
    return matcher.matches()
        ? String.format(
            "%020d.%06d.%s",
            Long.parseLong(matcher.group(1)), Long.parseLong(matcher.group(2)), name)
        : name;
  }

  /**
   * The message delivered last.
   *
   * @throws AssertionError where none has been delivered
   */
  public Mail last() {
    List<Mail> mail = mail();
    if (mail.isEmpty()) {
      throw new AssertionError("No message has been delivered to " + this + "\n" + diagnostics());
    }
    return mail.get(mail.size() - 1);
  }

  /**
   * Waits until at least {@code count} messages have been delivered and returns all of them as exim
   * stored them.
   *
   * @throws AssertionError where fewer arrived within {@code timeout}; the message carries exim's
   *     log, which says what it did with each SMTP session
   */
  public List<String> awaitMessages(int count, Duration timeout) {
    return awaitMail(count, timeout).stream().map(Mail::raw).toList();
  }

  /**
   * Waits until at least {@code count} messages have been delivered and returns all of them with
   * their headers parsed.
   *
   * @throws AssertionError where fewer arrived within {@code timeout}
   */
  public List<Mail> awaitMail(int count, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<Mail> mail = mail();
      if (mail.size() >= count) {
        return mail;
      }
      if (System.nanoTime() > deadline || !process.isAlive()) {
        throw new AssertionError(
            "Expected "
                + count
                + " message(s) delivered by exim on 127.0.0.1:"
                + port
                + " within "
                + timeout.toMillis()
                + " ms, got "
                + mail.size()
                + (process.isAlive() ? "" : " (exim has exited)")
                + "\n"
                + diagnostics());
      }
      Processes.pause();
    }
  }

  /** Exim's stderr, main log and panic log: what it did with each session, for a test report. */
  public String diagnostics() {
    return output(directory);
  }

  /** Names the receiver's address and whether it requires TLS, for assertion messages. */
  @Override
  public String toString() {
    return "SmtpReceiver[127.0.0.1:" + port + (requireTls ? ", TLS required" : "") + "]";
  }

  /**
   * Stops exim, once the deliveries under way (up to 2 s) have finished, and waits until it and its
   * children have exited; the folder with the delivered mail stays.
   */
  @Override
  public void close() {
    long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    while (deliveriesPending() && System.nanoTime() < deadline) {
      Processes.pause();
    }
    Processes.stop(process, Duration.ofSeconds(5));
  }

  private boolean deliveriesPending() {
    Path input = directory.resolve("spool/input");
    if (!Files.isDirectory(input)) {
      return false;
    }
    try (Stream<Path> files = Files.list(input)) {
      return files.anyMatch(file -> file.getFileName().toString().endsWith("-D"));
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * One delivered message: its text as exim stored it, and what its headers say about the envelope
   * and the session it came in.
   *
   * @param raw the headers and body, lines ending in LF
   */
  public record Mail(String raw) {
    /** The header block, folded lines joined, each header as {@code Name: value}. */
    public List<String> headers() {
      int end = raw.indexOf("\n\n");
      String block = end >= 0 ? raw.substring(0, end) : raw;
      List<String> headers = new ArrayList<>();
      for (String line : block.split("\n", -1)) {
        if (!headers.isEmpty() && (line.startsWith(" ") || line.startsWith("\t"))) {
          headers.set(headers.size() - 1, headers.get(headers.size() - 1) + " " + line.strip());
        } else if (!line.isEmpty()) {
          headers.add(line);
        }
      }
      return List.copyOf(headers);
    }

    /**
     * The value of the first header of that name (case does not matter), folded lines joined; empty
     * where there is none.
     */
    public Optional<String> header(String name) {
      return headers(name).stream().findFirst();
    }

    /** The values of every header of that name (case does not matter), in order. */
    public List<String> headers(String name) {
      String prefix = name.toLowerCase(Locale.ROOT) + ":";
      return headers().stream()
          .filter(header -> header.toLowerCase(Locale.ROOT).startsWith(prefix))
          .map(header -> header.substring(prefix.length()).strip())
          .toList();
    }

    /** The body: everything after the blank line that ends the headers. */
    public String body() {
      int end = raw.indexOf("\n\n");
      return end >= 0 ? raw.substring(end + 2) : "";
    }

    /** The envelope sender ({@code MAIL FROM}), without angle brackets; empty for {@code <>}. */
    public String envelopeSender() {
      String path = header("Return-path").orElse("");
      return path.startsWith("<") && path.endsWith(">")
          ? path.substring(1, path.length() - 1)
          : path;
    }

    /**
     * The envelope recipients ({@code RCPT TO}), as exim's {@code Envelope-to} header lists them.
     */
    public List<String> envelopeRecipients() {
      return header("Envelope-to").stream()
          .flatMap(value -> Arrays.stream(value.split(",")))
          .map(String::strip)
          .filter(address -> !address.isEmpty())
          .toList();
    }

    /** The TLS session the message came in, as exim names it (e.g. {@code TLS1.3:...:256}). */
    public Optional<String> tlsCipher() {
      return header("X-Received-Tls");
    }

    /** Whether the message came over TLS (after STARTTLS). */
    public boolean overTls() {
      return tlsCipher().isPresent();
    }

    /** The user the client authenticated as; empty where it did not authenticate. */
    public Optional<String> authenticatedUser() {
      return header("X-Authenticated");
    }
  }
}
