package io.bulwark.testing.redfish;

import static io.bulwark.testing.redfish.RedfishAnswers.carried;
import static io.bulwark.testing.redfish.RedfishAnswers.daemon;
import static io.bulwark.testing.redfish.RedfishAnswers.error;
import static io.bulwark.testing.redfish.RedfishAnswers.etag;
import static io.bulwark.testing.redfish.RedfishAnswers.load;
import static io.bulwark.testing.redfish.RedfishAnswers.merge;
import static io.bulwark.testing.redfish.RedfishAnswers.normalise;
import static io.bulwark.testing.redfish.RedfishAnswers.send;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.bulwark.testing.receivers.TestCertificates;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * TEST DOUBLE for a BMC's Redfish service (no real BMC can run here): serves a DMTF mockup tree
 * (DSP2043; each folder's {@code index.json} is the resource at that path, the tree's root being
 * {@code /redfish/v1}) over HTTPS as a BMC does. The protocol is followed as DSP0266 describes it:
 * {@code GET /redfish} and the service root without credentials, everything else with a session
 * ({@code POST /redfish/v1/SessionService/Sessions} answers 201 with {@code X-Auth-Token} and
 * {@code Location}, {@code DELETE} of that location logs out, sessions expire after their timeout)
 * or HTTP Basic; 401 with a Redfish error body otherwise; an {@code ETag} on every resource, a
 * {@code PATCH} with a stale {@code If-Match} answered 412; {@code #ComputerSystem.Reset} checked
 * against the resource's {@code ResetType@Redfish.AllowableValues} and changing {@code PowerState}
 * after a delay; {@code OData-Version: 4.0} on every answer. The mockup files are never changed:
 * changes (a PATCH, a reset, a scenario's overlay) live in memory. Failures can be injected for the
 * next requests: latency, 503 with {@code Retry-After}, malformed JSON, a request that is never
 * answered; and the certificate can be swapped. Modes a test switches on answer as DMTF's own
 * Redfish-Mockup-Server does: a login answered 204 with {@code Location} and {@code X-Auth-Token}
 * and no body ({@link #dmtfSessions}), resets accepted (204) without {@code PowerState} ever
 * changing ({@link #dmtfResets}); others answer every login with one status ({@link
 * #sessionLogins}) or every HTTP Basic request with one status ({@link #basicAnswers}). A test adds
 * resources the mockup lacks with {@link #put}. Thread-safe.
 */
public final class RedfishMockupServer implements AutoCloseable {
  private static final String SESSIONS = "/redfish/v1/SessionService/Sessions";

  private final Path root;
  private final String username;
  private final String password;
  private final Map<String, JsonObject> resources = new ConcurrentHashMap<>();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
  private final List<String> carried = java.util.Collections.synchronizedList(new ArrayList<>());
  private final List<String> issued = java.util.Collections.synchronizedList(new ArrayList<>());
  private final ExecutorService handlers = Executors.newCachedThreadPool(daemon("redfish-mockup"));
  private final ScheduledExecutorService later =
      Executors.newSingleThreadScheduledExecutor(daemon("redfish-mockup-reset"));
  private final CountDownLatch closed = new CountDownLatch(1);
  private final AtomicInteger failNext = new AtomicInteger();
  private final AtomicInteger malformedNext = new AtomicInteger();
  private final AtomicInteger hangNext = new AtomicInteger();
  private final SecureRandom random = new SecureRandom();
  private volatile int failStatus = 503;
  private volatile int retryAfterSeconds = 2;
  private volatile Duration latency = Duration.ZERO;
  private volatile Duration resetDelay = Duration.ofMillis(300);
  private volatile Duration sessionTimeout = Duration.ofMinutes(30);
  private volatile boolean dmtfSessions;
  private volatile boolean dmtfResets;
  private volatile int loginStatus;
  private volatile int basicStatus;
  private volatile HttpsServer server;
  private final int port;

  private record Session(String id, String token, long[] lastUsed) {}

  private RedfishMockupServer(
      Path root, TestCertificates certificates, String username, String password, int port)
      throws IOException {
    if (!Files.isRegularFile(root.resolve("index.json"))) {
      throw new IllegalArgumentException(
          root
              + " is not a Redfish mockup (no index.json at its root): point it at a folder of"
              + " the DMTF mockups, e.g. ../shared/data/redfish/public-rackmount1");
    }
    this.root = root;
    this.username = username;
    this.password = password;
    this.server = listen(certificates, port);
    this.port = server.getAddress().getPort();
  }

  /**
   * Serves the mockup in {@code root} on a free loopback port with the server certificate of {@code
   * certificates}, accepting {@code username}/{@code password}.
   */
  public static RedfishMockupServer start(
      Path root, TestCertificates certificates, String username, String password) {
    try {
      return new RedfishMockupServer(root, certificates, username, password, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not start the Redfish mockup server", e);
    }
  }

  private HttpsServer listen(TestCertificates certificates, int onPort) throws IOException {
    HttpsServer s =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort), 64);
    s.setHttpsConfigurator(new HttpsConfigurator(certificates.serverSslContext()));
    s.setExecutor(handlers);
    s.createContext("/", this::handle);
    s.start();
    return s;
  }

  /** Returns the port it listens on (127.0.0.1). */
  public int port() {
    return port;
  }

  /** Answers every request {@code delay} late. */
  public void latency(Duration delay) {
    latency = delay;
  }

  /**
   * Answers the next {@code n} requests with {@code status} and a Retry-After of {@code seconds}.
   */
  public void failNext(int n, int status, int seconds) {
    failStatus = status;
    retryAfterSeconds = seconds;
    failNext.set(n);
  }

  /** Answers the next {@code n} requests 200 with a body that is not complete JSON. */
  public void malformedNext(int n) {
    malformedNext.set(n);
  }

  /** Reads the next {@code n} requests and never answers them (until the server closes). */
  public void hangNext(int n) {
    hangNext.set(n);
  }

  /** Sets how long a session lives unused. */
  public void sessionTimeout(Duration timeout) {
    sessionTimeout = timeout;
  }

  /** Sets how long a reset takes before {@code PowerState} changes. */
  public void resetDelay(Duration delay) {
    resetDelay = delay;
  }

  private volatile java.util.function.BiConsumer<String, String> onReset;

  /**
   * Calls {@code hook} with the system's path and the reset type each time a reset has been carried
   * out (its {@code PowerState} changed): for a test whose BMC drives a virtual machine.
   */
  public void onReset(java.util.function.BiConsumer<String, String> hook) {
    onReset = hook;
  }

  /**
   * Answers a login ({@code POST} to Sessions) as DMTF's Redfish-Mockup-Server does: 204 No Content
   * with {@code Location} and {@code X-Auth-Token} and no body (off: 201 with the session as body).
   */
  public void dmtfSessions(boolean on) {
    dmtfSessions = on;
  }

  /**
   * Accepts a {@code #ComputerSystem.Reset} as DMTF's Redfish-Mockup-Server does: 204, and {@code
   * PowerState} never changes (off: it changes after {@link #resetDelay}).
   */
  public void dmtfResets(boolean on) {
    dmtfResets = on;
  }

  /**
   * Answers every login with {@code status} and no session: a 2xx without {@code X-Auth-Token} and
   * without body, another status with a Redfish error (a BMC without a session service, or one
   * refusing it); 0 logs in as usual.
   */
  public void sessionLogins(int status) {
    loginStatus = status;
  }

  /**
   * Answers every request that carries HTTP Basic with {@code status} and a Redfish error (with
   * {@code Retry-After: 0} for 503); 0 accepts HTTP Basic as usual.
   */
  public void basicAnswers(int status) {
    basicStatus = status;
  }

  /** Adds the resource at {@code path}, or replaces it (a scenario's resource the mockup lacks). */
  public void put(String path, JsonObject resource) {
    String p = normalise(path);
    if (!p.startsWith("/redfish/v1/")) {
      throw new IllegalArgumentException("a Redfish resource is under /redfish/v1/, not " + path);
    }
    resources.put(p, resource.copy());
  }

  /** Merges {@code patch} into the resource at {@code path} (a scenario: a failed fan…). */
  public void overlay(String path, JsonObject patch) {
    JsonObject r = resource(path);
    if (r == null) {
      throw new IllegalArgumentException("the mockup has no resource " + path);
    }
    synchronized (r) {
      merge(r, patch);
    }
  }

  /** Returns a copy of the resource at {@code path} as served now, or null. */
  public JsonObject get(String path) {
    JsonObject r = resource(path);
    if (r == null) {
      return null;
    }
    synchronized (r) {
      return r.copy();
    }
  }

  /** Returns "METHOD path [If-Match]" of every request so far, in order. */
  public List<String> requests() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  /**
   * Returns, for every request so far in the order of {@link #requests()}, the credential it
   * carried: "X-Auth-Token " and the token, "Basic", or "".
   */
  public List<String> credentialsCarried() {
    synchronized (carried) {
      return List.copyOf(carried);
    }
  }

  /** Returns the session tokens handed out so far, in order. */
  public List<String> tokensIssued() {
    synchronized (issued) {
      return List.copyOf(issued);
    }
  }

  /** Returns how many sessions are open. */
  public int openSessions() {
    return sessions.size();
  }

  /**
   * Serves from now on with the server certificate of {@code other}, on the same port (open
   * connections end).
   */
  public synchronized void swapCertificate(TestCertificates other) {
    server.stop(0);
    try {
      server = listen(other, port);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not listen on " + port + " again", e);
    }
  }

  @Override
  public void close() {
    if (closed.getCount() == 0) {
      return;
    }
    closed.countDown();
    server.stop(0);
    handlers.shutdownNow();
    later.shutdownNow();
  }

  // ---- serving ----

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String method = ex.getRequestMethod();
      String path = normalise(ex.getRequestURI().getPath());
      String ifMatch = ex.getRequestHeaders().getFirst("If-Match");
      synchronized (log) {
        log.add(method + " " + path + (ifMatch == null ? "" : " If-Match " + ifMatch));
        carried.add(carried(ex));
      }
      byte[] body = ex.getRequestBody().readAllBytes();
      if (hangNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        closed.await();
        return;
      }
      if (!latency.isZero()) {
        Thread.sleep(latency.toMillis());
      }
      if (failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        ex.getResponseHeaders().set("Retry-After", Integer.toString(retryAfterSeconds));
        error(ex, failStatus, "Base.1.8.ServiceTemporarilyUnavailable", "The service is busy.");
        return;
      }
      if (malformedNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        send(
            ex,
            200,
            ("{\"@odata.id\": \"" + path + "\", \"Name\": ").getBytes(StandardCharsets.UTF_8));
        return;
      }
      if (path.equals("/redfish")) {
        send(ex, 200, new JsonObject().put("v1", "/redfish/v1/"));
        return;
      }
      if (method.equals("POST") && path.equals(SESSIONS)) {
        login(ex, body);
        return;
      }
      boolean open = path.equals("/redfish/v1") || path.startsWith("/redfish/v1/odata");
      if (!open && basicStatus != 0 && carried(ex).equals("Basic")) {
        ex.getResponseHeaders().set("Retry-After", "0");
        error(ex, basicStatus, "Base.1.8.GeneralError", "HTTP Basic answered " + basicStatus + ".");
        return;
      }
      String session = authenticated(ex);
      if (!open && session == null) {
        error(ex, 401, "Base.1.8.NoValidSession", "There is no valid session established.");
        return;
      }
      switch (method) {
        case "GET" -> get(ex, path);
        case "PATCH" -> patch(ex, path, ifMatch, body);
        case "POST" -> post(ex, path, body);
        case "DELETE" -> delete(ex, path);
        default -> error(ex, 405, "Base.1.8.OperationNotAllowed", method + " is not allowed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void login(HttpExchange ex, byte[] body) throws IOException {
    int refuse = loginStatus;
    if (refuse / 100 == 2) {
      ex.sendResponseHeaders(refuse, -1);
      return;
    }
    if (refuse != 0) {
      error(ex, refuse, "Base.1.8.GeneralError", "The session service answered " + refuse + ".");
      return;
    }
    JsonObject credentials;
    try {
      credentials = new JsonObject(new String(body, StandardCharsets.UTF_8));
    } catch (DecodeException e) {
      error(ex, 400, "Base.1.8.MalformedJSON", "The request body is not JSON.");
      return;
    }
    if (!username.equals(credentials.getString("UserName"))
        || !password.equals(credentials.getString("Password"))) {
      error(ex, 401, "Base.1.8.ResourceAtUriUnauthorized", "Invalid user name or password.");
      return;
    }
    String id = HexFormat.of().formatHex(bytes(8));
    String token = HexFormat.of().formatHex(bytes(16));
    sessions.put(token, new Session(id, token, new long[] {System.nanoTime()}));
    issued.add(token);
    ex.getResponseHeaders().set("X-Auth-Token", token);
    ex.getResponseHeaders().set("Location", SESSIONS + "/" + id);
    if (dmtfSessions) {
      ex.sendResponseHeaders(204, -1);
      return;
    }
    send(
        ex,
        201,
        new JsonObject()
            .put("@odata.id", SESSIONS + "/" + id)
            .put("@odata.type", "#Session.v1_7_0.Session")
            .put("Id", id)
            .put("Name", "User Session")
            .put("UserName", username));
  }

  /** Returns the session id (or "basic") the request is authenticated with, or null. */
  private String authenticated(HttpExchange ex) {
    String token = ex.getRequestHeaders().getFirst("X-Auth-Token");
    if (token != null) {
      Session s = sessions.get(token);
      if (s == null) {
        return null;
      }
      synchronized (s) {
        long idle = System.nanoTime() - s.lastUsed()[0];
        if (idle > sessionTimeout.toNanos()) {
          sessions.remove(token);
          return null;
        }
        s.lastUsed()[0] = System.nanoTime();
      }
      return s.id();
    }
    String basic = ex.getRequestHeaders().getFirst("Authorization");
    if (basic != null && basic.startsWith("Basic ")) {
      String pair =
          new String(
              Base64.getDecoder().decode(basic.substring(6).strip()), StandardCharsets.UTF_8);
      if (pair.equals(username + ":" + password)) {
        return "basic";
      }
    }
    return null;
  }

  private void get(HttpExchange ex, String path) throws IOException {
    JsonObject r = resource(path);
    if (r == null) {
      error(
          ex, 404, "Base.1.8.ResourceMissingAtURI", "The resource at " + path + " does not exist.");
      return;
    }
    String encoded;
    synchronized (r) {
      encoded = r.encode();
    }
    ex.getResponseHeaders().set("ETag", etag(encoded));
    send(ex, 200, encoded.getBytes(StandardCharsets.UTF_8));
  }

  private void patch(HttpExchange ex, String path, String ifMatch, byte[] body) throws IOException {
    JsonObject r = resource(path);
    if (r == null) {
      error(
          ex, 404, "Base.1.8.ResourceMissingAtURI", "The resource at " + path + " does not exist.");
      return;
    }
    JsonObject change;
    try {
      change = new JsonObject(new String(body, StandardCharsets.UTF_8));
    } catch (DecodeException e) {
      error(ex, 400, "Base.1.8.MalformedJSON", "The request body is not JSON.");
      return;
    }
    synchronized (r) {
      String now = etag(r.encode());
      if (ifMatch != null && !ifMatch.equals(now) && !ifMatch.equals("*")) {
        error(
            ex,
            412,
            "Base.1.8.PreconditionFailed",
            "The ETag supplied did not match the ETag required to change this resource.");
        return;
      }
      JsonObject boot = change.getJsonObject("Boot");
      JsonObject current = r.getJsonObject("Boot");
      if (boot != null && current != null) {
        JsonArray allowed =
            current.getJsonArray("BootSourceOverrideTarget@Redfish.AllowableValues");
        String target = boot.getString("BootSourceOverrideTarget");
        if (target != null && allowed != null && !allowed.contains(target)) {
          error(
              ex,
              400,
              "Base.1.8.PropertyValueNotInList",
              "The value "
                  + target
                  + " for the property BootSourceOverrideTarget is not in the list"
                  + " of acceptable values.");
          return;
        }
      }
      merge(r, change);
    }
    ex.getResponseHeaders().set("ETag", etag(r.encode()));
    ex.sendResponseHeaders(204, -1);
  }

  private void post(HttpExchange ex, String path, byte[] body) throws IOException {
    int actions = path.indexOf("/Actions/ComputerSystem.Reset");
    if (actions < 0) {
      error(ex, 405, "Base.1.8.OperationNotAllowed", "POST is not allowed on " + path);
      return;
    }
    String system = path.substring(0, actions);
    JsonObject r = resource(system);
    if (r == null) {
      error(
          ex, 404, "Base.1.8.ResourceMissingAtURI", "The resource at " + path + " does not exist.");
      return;
    }
    String type;
    try {
      type = new JsonObject(new String(body, StandardCharsets.UTF_8)).getString("ResetType");
    } catch (DecodeException | ClassCastException e) {
      error(ex, 400, "Base.1.8.MalformedJSON", "The request body is not JSON.");
      return;
    }
    JsonArray allowed;
    synchronized (r) {
      JsonObject action =
          r.getJsonObject("Actions", new JsonObject()).getJsonObject("#ComputerSystem.Reset");
      allowed =
          action == null
              ? new JsonArray()
              : action.getJsonArray("ResetType@Redfish.AllowableValues", new JsonArray());
    }
    if (type == null || (!allowed.isEmpty() && !allowed.contains(type))) {
      error(
          ex,
          400,
          "Base.1.8.ActionParameterNotSupported",
          "The parameter ResetType with value " + type + " is not supported by the action.");
      return;
    }
    if (dmtfResets) {
      ex.sendResponseHeaders(204, -1);
      return;
    }
    later.schedule(
        () -> {
          RedfishAnswers.reset(r, type);
          java.util.function.BiConsumer<String, String> hook = onReset;
          if (hook != null) {
            hook.accept(system, type);
          }
        },
        resetDelay.toMillis(),
        TimeUnit.MILLISECONDS);
    ex.sendResponseHeaders(204, -1);
  }

  private void delete(HttpExchange ex, String path) throws IOException {
    if (path.startsWith(SESSIONS + "/")) {
      String id = path.substring(SESSIONS.length() + 1);
      boolean removed = sessions.values().removeIf(s -> s.id().equals(id));
      if (removed) {
        ex.sendResponseHeaders(204, -1);
        return;
      }
      error(ex, 404, "Base.1.8.ResourceMissingAtURI", "There is no session " + id + ".");
      return;
    }
    error(ex, 405, "Base.1.8.OperationNotAllowed", "DELETE is not allowed on " + path);
  }

  // ---- the tree ----

  private JsonObject resource(String path) {
    return resources.computeIfAbsent(path, p -> load(root, p));
  }

  private byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }
}
