package io.bulwark.sim.internal;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.KeyCertOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;

/**
 * The simulated fleet's BMCs: one Redfish service per simulated node, each on an address of its own
 * in 127.0.0.0/8 ({@link #address(int)}, e.g. 127.0.2.1 for the first node) and one shared port,
 * over HTTPS with the key managers it is given, as a BMC serves it (DSP0266): {@code /redfish} and
 * the service root without credentials, sessions ({@code POST /redfish/v1/SessionService/Sessions}
 * answers 201 with {@code X-Auth-Token} and {@code Location}; {@code DELETE} logs out; idle
 * sessions expire) or HTTP Basic; 401 with a Redfish error otherwise; {@code @odata.etag} and
 * {@code If-Match} on the system (412 when stale); {@code #ComputerSystem.Reset} with only its
 * listed types, changing the power after a delay; the event log's {@code ClearLog}. Requests can be
 * made slow (a latency range) and a share of them never answered, as fragile BMCs do, for
 * benchmarks. Runs on the event loop; never blocks.
 */
public final class SimulatedBmcs implements AutoCloseable {
  static final int SESSION_TIMEOUT_SECONDS = 1_800;
  static final int MAX_LOG_ENTRIES = 512;
  static final int MAX_SESSIONS = 64;
  private static final long MAX_BODY = 64 * 1024;
  private static final System.Logger LOG = System.getLogger(SimulatedBmcs.class.getName());

  /**
   * How the BMCs behave.
   *
   * @param port the port all of them listen on (0: a free one, chosen by the first)
   * @param username the user name they accept
   * @param password the password they accept
   * @param minLatencyMillis the least time a request takes
   * @param maxLatencyMillis the most time a request takes
   * @param hangShare the share of requests never answered, 0 to 1
   * @param resetMillis how long a reset takes before the power shows it
   */
  public record Options(
      int port,
      String username,
      String password,
      long minLatencyMillis,
      long maxLatencyMillis,
      double hangShare,
      long resetMillis) {
    public Options {
      if (minLatencyMillis < 0 || maxLatencyMillis < minLatencyMillis) {
        throw new IllegalArgumentException(
            "BMC latency must be 0 <= min <= max, got "
                + minLatencyMillis
                + ".."
                + maxLatencyMillis);
      }
      if (!(hangShare >= 0 && hangShare <= 1)) {
        throw new IllegalArgumentException("BMC hang share must be in [0, 1], got " + hangShare);
      }
    }
  }

  /** Where one simulated BMC listens, and the MACs of its system's two NICs. */
  public record Endpoint(String node, String address, int port, List<String> macs) {}

  private record Session(String id, String token, AtomicLong lastUsed) {}

  private final Vertx vertx;
  private volatile Options options;
  private final Clock clock;
  private final List<SimulatedBmc> bmcs = new ArrayList<>();
  private final Map<String, SimulatedBmc> byNode = new ConcurrentHashMap<>();
  private final List<HttpServer> servers = new ArrayList<>();
  private final List<Map<String, Session>> sessions = new ArrayList<>();
  private final SecureRandom random = new SecureRandom();
  private final SplittableRandom jitter = new SplittableRandom(7);
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong hung = new AtomicLong();
  private int port;

  /**
   * Starts one BMC per node of {@code nodes} (waits up to 10 s for the listeners).
   *
   * @throws IllegalStateException if a listener cannot start (the message says which and why)
   */
  public SimulatedBmcs(
      Vertx vertx,
      List<String> nodes,
      int gpusPerNode,
      long seed,
      KeyManagerFactory keys,
      Options options,
      Clock clock) {
    if (nodes.size() > 250 * 250) {
      throw new IllegalArgumentException("at most 62,500 simulated BMCs, got " + nodes.size());
    }
    this.vertx = vertx;
    this.options = options;
    this.clock = clock;
    for (int i = 0; i < nodes.size(); i++) {
      SimulatedBmc bmc = new SimulatedBmc(nodes.get(i), i, gpusPerNode, seed, clock.millis());
      bmcs.add(bmc);
      byNode.put(bmc.node(), bmc);
      sessions.add(new ConcurrentHashMap<>());
    }
    port = options.port();
    try {
      for (int i = 0; i < bmcs.size(); i++) {
        int n = i;
        HttpServerOptions o =
            new HttpServerOptions()
                .setHost(address(i))
                .setPort(port)
                .setSsl(true)
                .setSslEngineOptions(new JdkSSLEngineOptions())
                .setKeyCertOptions(KeyCertOptions.wrap(keys))
                .setIdleTimeout(120)
                .setIdleTimeoutUnit(TimeUnit.SECONDS);
        HttpServer s = vertx.createHttpServer(o).requestHandler(r -> handle(n, r));
        Future<HttpServer> listening = s.listen();
        HttpServer started =
            listening.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        servers.add(started);
        port = started.actualPort();
      }
    } catch (Exception e) {
      close();
      throw new IllegalStateException(
          "Simulated BMCs could not listen on "
              + address(servers.size())
              + ":"
              + port
              + " ("
              + e
              + "); choose another simulator port",
          e);
    }
    LOG.log(
        System.Logger.Level.INFO,
        "Simulated BMCs: {0} Redfish services at https://{1}..{2}:{3}/redfish/v1",
        bmcs.size(),
        address(0),
        address(bmcs.size() - 1),
        Integer.toString(port));
  }

  /** Returns the address of the BMC of node {@code i}: 127.0.(2 + i / 250).(1 + i % 250). */
  static String address(int i) {
    return "127.0." + (2 + i / 250) + "." + (1 + i % 250);
  }

  /** Changes how slow the BMCs answer and how many requests they leave unanswered, from now on. */
  public void behave(long minLatencyMillis, long maxLatencyMillis, double hangShare) {
    Options o = options;
    options =
        new Options(
            o.port(),
            o.username(),
            o.password(),
            minLatencyMillis,
            maxLatencyMillis,
            hangShare,
            o.resetMillis());
  }

  /** Returns where every BMC listens, in node order. */
  public List<Endpoint> endpoints() {
    List<Endpoint> out = new ArrayList<>();
    for (int i = 0; i < bmcs.size(); i++) {
      SimulatedBmc b = bmcs.get(i);
      out.add(new Endpoint(b.node(), address(i), port, List.of(b.mac(1), b.mac(2))));
    }
    return out;
  }

  /** Returns the BMC of {@code node}, if it has one. */
  Optional<SimulatedBmc> bmc(String node) {
    return Optional.ofNullable(byNode.get(node));
  }

  /** Returns how many requests arrived, and how many of them were left unanswered on purpose. */
  public long[] counts() {
    return new long[] {requests.get(), hung.get()};
  }

  // ---- the protocol ----

  private void handle(int n, HttpServerRequest request) {
    requests.incrementAndGet();
    request.pause();
    Options options = this.options;
    long delay;
    boolean hang;
    synchronized (jitter) {
      delay =
          options.minLatencyMillis()
              + (options.maxLatencyMillis() > options.minLatencyMillis()
                  ? jitter.nextLong(options.maxLatencyMillis() - options.minLatencyMillis() + 1)
                  : 0);
      hang = options.hangShare() > 0 && jitter.nextDouble() < options.hangShare();
    }
    if (hang) {
      hung.incrementAndGet();
      return; // never answered: the client's timeout must end it
    }
    Runnable go =
        () -> {
          request.resume();
          request
              .body()
              .onComplete(
                  body -> {
                    try {
                      answer(n, request, body.succeeded() ? body.result() : Buffer.buffer());
                    } catch (RuntimeException e) {
                      error(request, 500, "Base.1.0.InternalError", e.toString());
                    }
                  });
        };
    if (delay > 0) {
      vertx.setTimer(delay, id -> go.run());
    } else {
      go.run();
    }
  }

  private void answer(int n, HttpServerRequest request, Buffer body) {
    SimulatedBmc bmc = bmcs.get(n);
    String path = request.path();
    request.response().putHeader("OData-Version", "4.0");
    if (body.length() > MAX_BODY) {
      error(request, 413, "Base.1.0.GeneralError", "The request body is too large");
      return;
    }
    boolean open =
        request.method() == HttpMethod.GET
            && List.of("/redfish", "/redfish/", "/redfish/v1", "/redfish/v1/").contains(path);
    String sessionsPath = "/redfish/v1/SessionService/Sessions";
    if (request.method() == HttpMethod.POST && path.equals(sessionsPath)) {
      login(n, request, body);
      return;
    }
    if (!open && !authorised(n, request)) {
      request.response().putHeader("WWW-Authenticate", "Basic realm=\"Redfish\"");
      error(request, 401, "Base.1.0.NoValidSession", "There is no valid session established");
      return;
    }
    long now = clock.millis();
    if (path.startsWith(sessionsPath + "/") && request.method() == HttpMethod.DELETE) {
      String id = path.substring(sessionsPath.length() + 1);
      if (sessions.get(n).values().removeIf(s -> s.id().equals(id))) {
        request.response().setStatusCode(204).end();
      } else {
        error(request, 404, "Base.1.0.ResourceMissingAtURI", "No session " + id);
      }
      return;
    }
    if (path.equals(sessionsPath) && request.method() == HttpMethod.GET) {
      JsonArray members = new JsonArray();
      sessions
          .get(n)
          .values()
          .forEach(s -> members.add(SimulatedBmc.link(sessionsPath + "/" + s.id())));
      json(
          request,
          200,
          new JsonObject()
              .put("@odata.id", sessionsPath)
              .put("Name", "Sessions")
              .put("Members@odata.count", members.size())
              .put("Members", members));
      return;
    }
    switch (request.method().name()) {
      case "GET" ->
          bmc.resource(path, now)
              .ifPresentOrElse(
                  r -> {
                    if (r.containsKey("@odata.etag")) {
                      request.response().putHeader("ETag", r.getString("@odata.etag"));
                    }
                    json(request, 200, r);
                  },
                  () -> missing(request));
      case "PATCH" -> patch(bmc, request, body);
      case "POST" -> action(bmc, request, body, now);
      default ->
          error(
              request,
              405,
              "Base.1.0.OperationNotAllowed",
              request.method() + " is not allowed on " + path);
    }
  }

  private void patch(SimulatedBmc bmc, HttpServerRequest request, Buffer body) {
    if (!request.path().replaceAll("/$", "").equals(SimulatedBmc.SYSTEM)) {
      error(
          request,
          405,
          "Base.1.0.OperationNotAllowed",
          "PATCH is not allowed on " + request.path());
      return;
    }
    String ifMatch = request.getHeader("If-Match");
    if (ifMatch != null && !ifMatch.equals("*") && !ifMatch.equals(bmc.etag())) {
      error(
          request,
          412,
          "Base.1.0.PreconditionFailed",
          "The ETag " + ifMatch + " is not the current one (" + bmc.etag() + ")");
      return;
    }
    JsonObject change = parse(request, body);
    if (change == null) {
      return;
    }
    String[] problem = bmc.patch(change);
    if (problem != null) {
      error(request, 400, "Base.1.0.PropertyValueNotInList", problem[0]);
      return;
    }
    request.response().putHeader("ETag", bmc.etag());
    request.response().setStatusCode(204).end();
  }

  private void action(SimulatedBmc bmc, HttpServerRequest request, Buffer body, long now) {
    String path = request.path();
    if (path.equals(SimulatedBmc.SYSTEM + "/Actions/ComputerSystem.Reset")) {
      JsonObject b = parse(request, body);
      if (b == null) {
        return;
      }
      String type = b.getString("ResetType", "");
      if (!SimulatedBmc.RESET_TYPES.contains(type)) {
        error(
            request,
            400,
            "Base.1.0.ActionParameterValueNotInList",
            "The value " + type + " for ResetType is not allowed");
        return;
      }
      reset(bmc, type);
      request.response().setStatusCode(204).end();
    } else if (path.equals(SimulatedBmc.SEL + "/Actions/LogService.ClearLog")) {
      bmc.clearLog(now);
      request.response().setStatusCode(204).end();
    } else {
      missing(request);
    }
  }

  private void reset(SimulatedBmc bmc, String type) {
    long d = Math.max(1, options.resetMillis());
    switch (type) {
      case "On" -> later(d, () -> bmc.setPower("On"));
      case "ForceOff", "GracefulShutdown" -> later(d, () -> bmc.setPower("Off"));
      case "ForceRestart", "PowerCycle" -> {
        bmc.setPower("Off");
        later(
            d,
            () -> {
              bmc.setPower("On");
              java.util.function.Consumer<String> listener = onPowerCycle;
              if (listener != null) {
                listener.accept(bmc.node());
              }
            });
      }
      default -> {}
    }
  }

  private volatile java.util.function.Consumer<String> onPowerCycle;

  /** Calls {@code listener} with the node's name after each power cycle (or restart) ends. */
  void onPowerCycle(java.util.function.Consumer<String> listener) {
    onPowerCycle = listener;
  }

  private void later(long millis, Runnable r) {
    vertx.setTimer(millis, id -> r.run());
  }

  private void login(int n, HttpServerRequest request, Buffer body) {
    JsonObject b = parse(request, body);
    if (b == null) {
      return;
    }
    if (!options.username().equals(b.getString("UserName"))
        || !constantTimeEquals(options.password(), b.getString("Password", ""))) {
      error(request, 401, "Base.1.0.NoValidSession", "Invalid user name or password");
      return;
    }
    Map<String, Session> mine = sessions.get(n);
    expire(mine);
    if (mine.size() >= MAX_SESSIONS) {
      error(request, 503, "Base.1.0.ServiceTemporarilyUnavailable", "Too many sessions");
      return;
    }
    byte[] t = new byte[24];
    random.nextBytes(t);
    String token = HexFormat.of().formatHex(t);
    String id = Long.toString(Math.abs(random.nextLong() % 1_000_000_000L));
    mine.put(token, new Session(id, token, new AtomicLong(System.nanoTime())));
    String location = "/redfish/v1/SessionService/Sessions/" + id;
    request.response().putHeader("X-Auth-Token", token).putHeader("Location", location);
    json(
        request,
        201,
        new JsonObject()
            .put("@odata.id", location)
            .put("@odata.type", "#Session.v1_7_0.Session")
            .put("Id", id)
            .put("Name", "User Session")
            .put("UserName", options.username()));
  }

  private boolean authorised(int n, HttpServerRequest request) {
    String token = request.getHeader("X-Auth-Token");
    Map<String, Session> mine = sessions.get(n);
    if (token != null) {
      expire(mine);
      Session s = mine.get(token);
      if (s != null) {
        s.lastUsed().set(System.nanoTime());
        return true;
      }
      return false;
    }
    String auth = request.getHeader("Authorization");
    if (auth != null && auth.regionMatches(true, 0, "Basic ", 0, 6)) {
      try {
        String pair =
            new String(
                Base64.getDecoder().decode(auth.substring(6).strip()), StandardCharsets.UTF_8);
        int colon = pair.indexOf(':');
        return colon > 0
            && options.username().equals(pair.substring(0, colon))
            && constantTimeEquals(options.password(), pair.substring(colon + 1));
      } catch (IllegalArgumentException e) {
        return false;
      }
    }
    return false;
  }

  private static void expire(Map<String, Session> sessions) {
    long limit = System.nanoTime() - TimeUnit.SECONDS.toNanos(SESSION_TIMEOUT_SECONDS);
    sessions.values().removeIf(s -> s.lastUsed().get() < limit);
  }

  private static boolean constantTimeEquals(String a, String b) {
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  private static JsonObject parse(HttpServerRequest request, Buffer body) {
    try {
      Object v = body.length() == 0 ? new JsonObject() : io.vertx.core.json.Json.decodeValue(body);
      if (v instanceof JsonObject o) {
        return o;
      }
    } catch (DecodeException e) {
      // answered below
    }
    error(request, 400, "Base.1.0.MalformedJSON", "The request body is not a JSON object");
    return null;
  }

  private static void missing(HttpServerRequest request) {
    error(
        request,
        404,
        "Base.1.0.ResourceMissingAtURI",
        "The resource at " + request.path() + " was not found");
  }

  private static void json(HttpServerRequest request, int status, JsonObject body) {
    request
        .response()
        .setStatusCode(status)
        .putHeader("Content-Type", "application/json;charset=utf-8")
        .end(body.encode());
  }

  private static void error(HttpServerRequest request, int status, String id, String message) {
    JsonObject info =
        new JsonObject().put("MessageId", id).put("Message", message).put("Severity", "Critical");
    json(
        request,
        status,
        new JsonObject()
            .put(
                "error",
                new JsonObject()
                    .put("code", id)
                    .put("message", message)
                    .put("@Message.ExtendedInfo", new JsonArray().add(info))));
  }

  @Override
  public void close() {
    for (HttpServer s : servers) {
      try {
        s.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "A simulated BMC listener did not close cleanly: {0}",
            e.toString());
      }
    }
    servers.clear();
  }

  /** Returns the SHA-256 fingerprint of {@code der} (lower-case hex), with the FIPS provider. */
  static String fingerprint(byte[] der) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256", "BCFIPS").digest(der));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("the FIPS module offers no SHA-256: " + e.getMessage(), e);
    }
  }
}
