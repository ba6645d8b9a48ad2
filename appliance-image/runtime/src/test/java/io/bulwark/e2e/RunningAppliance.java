package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Bulwark process started from an exported role jar exactly as an admin starts it ({@code java
 * -jar}), with its own data folder and free ports, its console captured to a log file. Stopped with
 * SIGTERM like a service manager.
 */
final class RunningAppliance implements AutoCloseable {
  final Path dataDir;
  final Path log;

  /** The installer's admin password the tests start Bulwark with (it meets the password policy). */
  static final String ADMIN_PASSWORD = "Correct-Horse-Battery-9";

  final int httpsPort;
  private volatile String sessionCookie;
  private volatile String csrfToken;
  final int simPort;
  final Process process;
  final long startedNanos = System.nanoTime();
  private final HttpClient http;

  /** The simulator's control API is plain HTTP on loopback, like dcgm-exporter's pages. */
  private final HttpClient simHttp =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private RunningAppliance(Path jar, Path workDir, Map<String, String> env) throws IOException {
    this.dataDir = workDir.resolve("data");
    this.log = workDir.resolve("console.log");
    this.httpsPort = Integer.parseInt(env.get("BULWARK_HTTPS_PORT"));
    this.http = PinnedCertificate.client(log);
    this.simPort = Integer.parseInt(env.getOrDefault("BULWARK_SIM_PORT", "0"));
    Files.createDirectories(workDir);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // The JVM options of the test group (e2e-parallel: the C1 compiler only, as a test appliance
    // lives a minute or two and C2's compilations took a third of a core of the two); none for the
    // tests that measure, which run the appliance as it ships.
    String options = System.getProperty("bulwark.e2e.applianceJvmOptions", "").strip();
    if (!options.isEmpty()) {
      command.addAll(List.of(options.split("\\s+")));
    }
    command.add("-jar");
    command.add(jar.toString());
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().keySet().removeIf(k -> k.startsWith("BULWARK_"));
    pb.environment().putAll(env);
    this.process = pb.start();
  }

  /**
   * Starts the demo role in {@code workDir} on free ports; {@code extraEnv} adds or replaces
   * variables.
   */
  static RunningAppliance demo(Path workDir, Map<String, String> extraEnv) throws IOException {
    Map<String, String> env = new HashMap<>();
    env.put("BULWARK_DATA_DIR", workDir.resolve("data").toString());
    env.put("BULWARK_HTTPS_PORT", Integer.toString(freePort()));
    env.put("BULWARK_ADMIN_PASSWORD", ADMIN_PASSWORD);
    env.put("BULWARK_SIM_PORT", Integer.toString(freePort()));
    env.putAll(extraEnv);
    return new RunningAppliance(Path.of(System.getProperty("bulwark.demo.jar")), workDir, env);
  }

  /**
   * Returns an empty folder for one test's appliance: what an earlier run left there is removed.
   */
  static Path workDir(String name) throws IOException {
    Path dir = Path.of(System.getProperty("bulwark.e2e.dir", "target/e2e")).resolve(name);
    if (Files.exists(dir)) {
      try (var walk = Files.walk(dir)) {
        for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(dir);
    return dir;
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  String baseUrl() {
    return "https://127.0.0.1:" + httpsPort;
  }

  /**
   * Waits until the appliance says it is ready ({@code /healthz} answers "ok", which it does only
   * after "Bulwark started") and logs in as the initial admin, once: a ready appliance admits the
   * login. Returns the seconds from process start until it was ready.
   */
  double awaitUp(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new AssertionError(
            "Bulwark exited with " + process.exitValue() + " before it listened:\n" + console());
      }
      try {
        HttpResponse<String> health = rawGet("/healthz");
        if (health.statusCode() == 200) {
          double seconds = (System.nanoTime() - startedNanos) / 1e9;
          assertThat(console()).as("the console once /healthz is ok").contains("Bulwark started");
          login();
          return seconds;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new AssertionError("Bulwark did not answer within " + timeout + ":\n" + console());
  }

  /** Logs in as the initial admin; later calls carry the session cookie and CSRF token. */
  void login() throws IOException, InterruptedException {
    String body =
        new io.vertx.core.json.JsonObject()
            .put("user", "admin")
            .put("password", ADMIN_PASSWORD)
            .encode();
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(baseUrl() + "/api/v1/session"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 201) {
      throw new AssertionError("login as admin failed: " + r.statusCode() + " " + r.body());
    }
    String cookie = r.headers().firstValue("set-cookie").orElseThrow();
    sessionCookie = cookie.substring(0, cookie.indexOf(';'));
    csrfToken = new io.vertx.core.json.JsonObject(r.body()).getString("csrfToken");
  }

  private HttpResponse<String> rawGet(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** GETs an admin-plane path as the logged-in admin. */
  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        authenticated(HttpRequest.newBuilder(URI.create(baseUrl() + path)))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Opens a streaming GET (the event stream) as the logged-in admin; the lines arrive as sent. */
  java.util.concurrent.CompletableFuture<HttpResponse<java.util.stream.Stream<String>>> stream(
      String path) {
    return http.sendAsync(
        authenticated(HttpRequest.newBuilder(URI.create(baseUrl() + path))).build(),
        HttpResponse.BodyHandlers.ofLines());
  }

  private HttpRequest.Builder authenticated(HttpRequest.Builder b) {
    if (sessionCookie != null) {
      b.header("Cookie", sessionCookie).header("X-CSRF-Token", csrfToken);
    }
    return b;
  }

  HttpResponse<String> send(String method, String url, String json)
      throws IOException, InterruptedException {
    return send(method, url, json, Duration.ofSeconds(5));
  }

  /**
   * Sends a request as the logged-in admin (to the admin plane when {@code url} is a path or an
   * https URL, else to the simulator), waiting at most {@code timeout} for the answer.
   */
  HttpResponse<String> send(String method, String url, String json, Duration timeout)
      throws IOException, InterruptedException {
    if (url.startsWith("/")) {
      url = baseUrl() + url;
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(timeout);
    if (url.startsWith("https:")) {
      authenticated(b);
    }
    b =
        json == null
            ? b.method(method, HttpRequest.BodyPublishers.noBody())
            : b.header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json));
    return (url.startsWith("https:") ? http : simHttp)
        .send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Sends a request to an admin-plane path with only the headers given (name, value, …): as another
   * user's session or token, or as nobody.
   */
  HttpResponse<String> request(String method, String path, String json, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(30));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    b =
        json == null
            ? b.method(method, HttpRequest.BodyPublishers.noBody())
            : b.header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** POSTs a file's bytes to an API path, with extra headers (name, value, …), as an upload. */
  HttpResponse<String> upload(String path, Path file, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(baseUrl() + path))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofFile(file));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(authenticated(b).build(), HttpResponse.BodyHandlers.ofString());
  }

  String simUrl(String path) {
    return "http://127.0.0.1:" + simPort + path;
  }

  String console() {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "(console unreadable: " + e + ")";
    }
  }

  /** Sends SIGTERM and waits for the exit; returns the exit status. */
  int terminate(Duration timeout) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          "Bulwark did not stop within " + timeout + " of SIGTERM:\n" + console());
    }
    return process.exitValue();
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  static List<String> lines(String text) {
    return text.lines().toList();
  }
}
