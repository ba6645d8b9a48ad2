package io.bulwark.testing.alerting;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A real Prometheus Alertmanager (the Debian package {@code prometheus-alertmanager}, 0.25) running
 * on 127.0.0.1 for the length of a test, configured to send every alert to one webhook, typically a
 * {@link WebhookCapture}. Tests post alerts to {@link #uri()}{@code api/v2/alerts} with their own
 * client and check what reaches the webhook, so they test against Alertmanager itself rather than
 * an imitation of it.
 *
 * <p>{@link #start(Path, URI, List, Duration)} writes {@code <dir>/alertmanager.yml}:
 *
 * <pre>
 * route:
 *   receiver: 'webhook-capture'
 *   group_by: ['...']
 *   group_wait: 0s
 *   group_interval: 1s
 *   repeat_interval: 1h
 * receivers:
 *   - name: 'webhook-capture'
 *     webhook_configs:
 *       - url: '&lt;webhookUrl&gt;'
 *         send_resolved: true
 * </pre>
 *
 * <p>and runs, with its output in {@code <dir>/alertmanager.log}:
 *
 * <pre>
 * prometheus-alertmanager --config.file=&lt;dir&gt;/alertmanager.yml --storage.path=&lt;dir&gt;/data
 *     --web.listen-address=127.0.0.1:&lt;port&gt; --web.external-url=http://127.0.0.1:&lt;port&gt;/
 *     --cluster.listen-address= --log.level=info
 * </pre>
 *
 * <p>The empty cluster address turns off high-availability gossip, so Alertmanager opens no port
 * but its HTTP one and contacts nothing but the webhook; the external URL keeps it from looking up
 * the host name (it shows in every webhook as {@code externalURL}); the proxy variables are removed
 * from its environment, so the webhook is called directly. Start-up takes about 0.2 s.
 *
 * <p>Grouping: {@code group_by: ['...']} groups by every label, so each distinct label set is a
 * group of its own and every alert arrives in a webhook call of its own, with a {@code groupKey}
 * such as <code>{}:{alertname="GpuXid", node="gpu-node-001", severity="critical"}</code>. Pass
 * {@code List.of("alertname", "node")} to {@link #start(Path, URI, List)} to batch the alerts of
 * one kind on one node into one call instead (their differing labels then leave {@code
 * commonLabels}). With {@code group_wait} 0 s the first call of a group goes out at once, before
 * alerts posted right after it can join; pass a group wait of a second to {@link #start(Path, URI,
 * List, Duration)} when a test needs several alerts in the first call. Changes to a group go out at
 * most every second ({@code group_interval}); an unchanged firing group is repeated after an hour,
 * which is after any test ends. Resolved alerts are sent ({@code send_resolved}).
 *
 * <p>Failures, as Alertmanager 0.25 handles them: within one notification it retries a 5xx answer
 * or a connection error with back-off (about 0.5 s, 1.3 s, 2.7 s, ...) for 10 s in all, and gives
 * up on a 4xx answer at once; a webhook that does not answer is abandoned after those 10 s. A
 * notification that failed is sent anew at the group's next flush, so a failing webhook keeps
 * getting calls (every second for a 4xx) until it answers 2xx.
 *
 * <p>The binary is {@code prometheus-alertmanager} on the {@code PATH} (or {@code
 * /usr/bin/prometheus-alertmanager}), or the file named by the system property {@value
 * #BINARY_PROPERTY}. When there is none, {@code start} throws, so tests that need it fail rather
 * than skip.
 */
public final class AlertmanagerProcess implements AutoCloseable {
  /** System property naming the Alertmanager executable, for machines where it is not on PATH. */
  public static final String BINARY_PROPERTY = "bulwark.alertmanager.binary";

  /** The receiver's name in the configuration; webhooks carry it as {@code receiver}. */
  public static final String RECEIVER = "webhook-capture";

  /** {@code group_by: ['...']}: group by all labels, one group (and webhook call) per label set. */
  public static final List<String> GROUP_BY_ALL = List.of("...");

  private static final String EXECUTABLE = "prometheus-alertmanager";
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
  private static final int START_ATTEMPTS = 3;
  private static final List<String> PROXY_VARIABLES =
      List.of(
          "http_proxy",
          "https_proxy",
          "all_proxy",
          "no_proxy",
          "HTTP_PROXY",
          "HTTPS_PROXY",
          "ALL_PROXY",
          "NO_PROXY");

  private final Process process;
  private final URI uri;
  private final Path configFile;
  private final Path logFile;
  private final List<String> command;
  private final HttpClient http;
  private final Thread killOnExit;

  private AlertmanagerProcess(
      Process process,
      URI uri,
      Path configFile,
      Path logFile,
      List<String> command,
      HttpClient http,
      Thread killOnExit) {
    this.process = process;
    this.uri = uri;
    this.configFile = configFile;
    this.logFile = logFile;
    this.command = command;
    this.http = http;
    this.killOnExit = killOnExit;
  }

  /**
   * Starts Alertmanager with its files in {@code dir} (created if missing; a JUnit temporary folder
   * suits), sending every alert, ungrouped ({@link #GROUP_BY_ALL}), to {@code webhookUrl}; returns
   * once it answers {@code GET /-/ready} with 200. Close it when the test is done.
   *
   * @throws IllegalStateException if the binary is missing, or Alertmanager exits or is not ready
   *     within 15 s (the message holds its output)
   */
  public static AlertmanagerProcess start(Path dir, URI webhookUrl) {
    return start(dir, webhookUrl, GROUP_BY_ALL, Duration.ZERO);
  }

  /**
   * Starts Alertmanager as {@link #start(Path, URI)} does, grouping alerts by the labels {@code
   * groupBy} (e.g. {@code List.of("alertname", "node")}) instead of by all of them.
   *
   * @throws IllegalArgumentException if {@code groupBy} is empty, mixes {@code "..."} with label
   *     names, or holds something that is not a label name
   * @throws IllegalStateException as {@link #start(Path, URI)}
   */
  public static AlertmanagerProcess start(Path dir, URI webhookUrl, List<String> groupBy) {
    return start(dir, webhookUrl, groupBy, Duration.ZERO);
  }

  /**
   * Starts Alertmanager as {@link #start(Path, URI, List)} does, with {@code group_wait} set to
   * {@code groupWait} (whole milliseconds; 0 sends a new group's first call at once).
   *
   * @throws IllegalArgumentException if {@code groupBy} is invalid or {@code groupWait} negative
   * @throws IllegalStateException as {@link #start(Path, URI)}
   */
  public static AlertmanagerProcess start(
      Path dir, URI webhookUrl, List<String> groupBy, Duration groupWait) {
    String config = config(webhookUrl, groupBy, groupWait);
    String binary = binary();
    Path configFile;
    Path logFile;
    Path dataDir;
    try {
      Files.createDirectories(dir);
      configFile = dir.resolve("alertmanager.yml").toAbsolutePath();
      logFile = dir.resolve("alertmanager.log").toAbsolutePath();
      dataDir = dir.resolve("data").toAbsolutePath();
      Files.createDirectories(dataDir);
      Files.writeString(configFile, config);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "could not write Alertmanager's configuration into " + dir + ": " + e, e);
    }
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .proxy(HttpClient.Builder.NO_PROXY)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    IllegalStateException lastFailure = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      int port = freePort();
      URI uri = URI.create("http://127.0.0.1:" + port + "/");
      List<String> command =
          List.of(
              binary,
              "--config.file=" + configFile,
              "--storage.path=" + dataDir,
              "--web.listen-address=127.0.0.1:" + port,
              "--web.external-url=" + uri,
              "--cluster.listen-address=",
              "--log.level=info");
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(logFile.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      Map<String, String> env = builder.environment();
      PROXY_VARIABLES.forEach(env::remove);
      Process process;
      try {
        process = builder.start();
      } catch (IOException e) {
        throw new IllegalStateException(
            "could not run " + binary + ": " + e + "; " + installHint(), e);
      }
      Thread killOnExit = new Thread(process::destroyForcibly, "alertmanager-kill-on-exit");
      Runtime.getRuntime().addShutdownHook(killOnExit);
      AlertmanagerProcess am =
          new AlertmanagerProcess(process, uri, configFile, logFile, command, http, killOnExit);
      try {
        am.awaitReady();
        return am;
      } catch (RuntimeException e) {
        boolean exited = !process.isAlive();
        am.close();
        if (exited && am.log().contains("address already in use") && attempt < START_ATTEMPTS) {
          lastFailure = new IllegalStateException(e.getMessage(), e);
          continue; // another process took the free port between our check and Alertmanager's bind
        }
        throw e;
      }
    }
    throw lastFailure;
  }

  /**
   * The configuration {@code start} writes for these arguments, as YAML text.
   *
   * @throws IllegalArgumentException as {@link #start(Path, URI, List, Duration)}
   */
  public static String config(URI webhookUrl, List<String> groupBy, Duration groupWait) {
    if (webhookUrl == null
        || !webhookUrl.isAbsolute()
        || !("http".equals(webhookUrl.getScheme()) || "https".equals(webhookUrl.getScheme()))) {
      throw new IllegalArgumentException(
          "the webhook URL must be an absolute http or https URL, got "
              + webhookUrl
              + "; pass e.g. WebhookCapture.url(\"/alertmanager\")");
    }
    if (groupBy.isEmpty()) {
      throw new IllegalArgumentException(
          "group_by is empty, which would put all alerts in one group; pass GROUP_BY_ALL for no"
              + " grouping or the label names to group by");
    }
    if (groupBy.contains("...") && groupBy.size() > 1) {
      throw new IllegalArgumentException(
          "group_by "
              + groupBy
              + " mixes \"...\" (all labels) with label names; pass one or the"
              + " other");
    }
    for (String label : groupBy) {
      if (!label.equals("...") && !LABEL_NAME.matcher(label).matches()) {
        throw new IllegalArgumentException(
            "group_by holds \""
                + label
                + "\", which is not a label name (letters, digits and _, not starting with a"
                + " digit)");
      }
    }
    if (groupWait.isNegative()) {
      throw new IllegalArgumentException("group_wait must not be negative, got " + groupWait);
    }
    StringBuilder labels = new StringBuilder();
    for (String label : groupBy) {
      labels.append(labels.length() == 0 ? "" : ", ").append(quote(label));
    }
    return "# Written by io.bulwark.testing.alerting.AlertmanagerProcess for a test.\n"
        + "route:\n"
        + "  receiver: "
        + quote(RECEIVER)
        + "\n"
        + "  group_by: ["
        + labels
        + "]\n"
        + "  group_wait: "
        + duration(groupWait)
        + "\n"
        + "  group_interval: 1s\n"
        + "  repeat_interval: 1h\n"
        + "receivers:\n"
        + "  - name: "
        + quote(RECEIVER)
        + "\n"
        + "    webhook_configs:\n"
        + "      - url: "
        + quote(webhookUrl.toString())
        + "\n"
        + "        send_resolved: true\n";
  }

  /** Alertmanager's base URL, {@code http://127.0.0.1:<port>/}, ending in a slash. */
  public URI uri() {
    return uri;
  }

  /**
   * The body of {@code GET /api/v2/alerts}: a JSON array of the alerts Alertmanager holds, each
   * with labels, annotations, startsAt, endsAt, updatedAt, fingerprint, receivers and status.
   *
   * @throws IllegalStateException if Alertmanager does not answer 200 (the message holds its
   *     answer)
   * @throws UncheckedIOException if it cannot be reached
   */
  public String alertsJson() {
    URI alerts = uri.resolve("api/v2/alerts");
    HttpResponse<String> response;
    try {
      response =
          http.send(
              HttpRequest.newBuilder(alerts).timeout(Duration.ofSeconds(10)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(
          "GET " + alerts + " failed: " + e + "; Alertmanager's output:\n" + log(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during GET " + alerts, e);
    }
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          "GET " + alerts + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  /** The configuration file Alertmanager runs with. */
  public Path configFile() {
    return configFile;
  }

  /** The file that receives Alertmanager's standard output and error. */
  public Path logFile() {
    return logFile;
  }

  /** What Alertmanager has written to its output so far, for failure messages. */
  public String log() {
    try {
      return Files.readString(logFile, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(could not read " + logFile + ": " + e + ")";
    }
  }

  /** The command line Alertmanager was started with, binary first. */
  public List<String> command() {
    return command;
  }

  /** Stops Alertmanager (SIGTERM, then SIGKILL after 5 s) and waits until it has exited. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          process.waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException e) {
      // the JVM is shutting down; the hook kills the process anyway
    }
  }

  private void awaitReady() {
    URI ready = uri.resolve("-/ready");
    HttpRequest request =
        HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(1)).GET().build();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    String lastAnswer = "no answer yet";
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "Alertmanager exited with status "
                + process.exitValue()
                + " before it was ready; command: "
                + String.join(" ", command)
                + "\nconfiguration ("
                + configFile
                + "):\n"
                + readQuietly(configFile)
                + "output ("
                + logFile
                + "):\n"
                + log());
      }
      try {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return;
        }
        lastAnswer = response.statusCode() + " " + response.body();
      } catch (IOException e) {
        lastAnswer = e.toString();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for Alertmanager at " + uri, e);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for Alertmanager at " + uri, e);
      }
    }
    throw new IllegalStateException(
        "Alertmanager did not answer GET "
            + ready
            + " with 200 within "
            + START_TIMEOUT.toSeconds()
            + " s (last: "
            + lastAnswer
            + "); the machine may be overloaded. Command: "
            + String.join(" ", command)
            + "\noutput ("
            + logFile
            + "):\n"
            + log());
  }

  private static String binary() {
    String configured = System.getProperty(BINARY_PROPERTY);
    if (configured != null && !configured.isBlank()) {
      if (!Files.isExecutable(Path.of(configured))) {
        throw new IllegalStateException(
            "the system property "
                + BINARY_PROPERTY
                + " names "
                + configured
                + ", which is not an executable file; point it at the alertmanager binary or"
                + " unset it and "
                + installHint());
      }
      return configured;
    }
    String path = System.getenv().getOrDefault("PATH", "");
    for (String entry : path.split(File.pathSeparator)) {
      if (!entry.isEmpty() && Files.isExecutable(Path.of(entry, EXECUTABLE))) {
        return Path.of(entry, EXECUTABLE).toString();
      }
    }
    Path debian = Path.of("/usr/bin", EXECUTABLE);
    if (Files.isExecutable(debian)) {
      return debian.toString();
    }
    throw new IllegalStateException(
        "the Alertmanager binary "
            + EXECUTABLE
            + " is not on the PATH ("
            + path
            + ") nor in /usr/bin, and these tests need a real one; "
            + installHint());
  }

  private static String installHint() {
    return "install it with `apt-get install prometheus-alertmanager` (Debian/Ubuntu, 0.25), or set"
        + " -D"
        + BINARY_PROPERTY
        + "=/path/to/alertmanager";
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("could not find a free port on 127.0.0.1: " + e, e);
    }
  }

  private static String quote(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  private static String duration(Duration d) {
    long millis = d.toMillis();
    return millis % 1000 == 0 ? (millis / 1000) + "s" : millis + "ms";
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(could not read " + file + ": " + e + ")\n";
    }
  }
}
