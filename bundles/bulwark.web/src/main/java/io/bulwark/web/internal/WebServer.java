package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.AdminTls;
import io.bulwark.api.system.ApplianceStarted;
import io.bulwark.api.system.ConnectionLimits;
import io.bulwark.api.system.InboundConnections;
import io.bulwark.api.system.ListenerGuard;
import io.bulwark.api.system.SteadyClock;
import io.bulwark.lib.vertx.HttpListen;
import io.bulwark.web.api.EventTopic;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The admin plane: the HTTPS listener of the operator's web UI and its JSON API, with what every
 * request goes through (connection limits and deadlines, authentication and sessions, role checks,
 * security headers, problem answers, the login gate) and the server-sent event hub. Everything else
 * is contributed: routes, pages and event topics come from {@link Contributions} and the router is
 * rebuilt whenever one comes or goes. The listener needs only the shared Vert.x, the accounts and
 * the TLS identity, so that updating any other bundle (the store, the audit log, a plugin) never
 * closes it nor ends a session: the routes that need the missing bundle answer 503 meanwhile.
 * Listens when activated and stops listening when deactivated.
 */
@Component(
    service = WebServer.class,
    immediate = true,
    configurationPid = WebServer.PID,
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = WebConfig.class)
public final class WebServer implements Contributions.Listener {
  /** The configuration PID. */
  public static final String PID = "io.bulwark.web";

  private static final Logger LOG = System.getLogger(WebServer.class.getName());
  private static final long START_TIMEOUT_SECONDS = 30;
  private static final long STOP_TIMEOUT_SECONDS = 10;
  private static final long REFUSAL_FLUSH_MILLIS = 5_000;

  /**
   * What the plane itself needs: the accounts (authentication, sessions), the subsystems' reports
   * (for {@code /metrics}), the notice banner, the clock, the audit log for refused requests (which
   * throws while it is missing), and where the addresses of authenticated requests go.
   */
  record Core(
      Accounts accounts,
      SubsystemChecks subsystems,
      String banner,
      Clock clock,
      Supplier<AuditLog> audit,
      BooleanSupplier started,
      Consumer<String> authenticatedFrom) {}

  /**
   * Whether the appliance has started ({@link ApplianceStarted} is registered): until then health
   * and login answer "starting". True from the start for a plane built without the framework.
   */
  private volatile boolean started;

  private final ServiceSlot<AuditLog> audit =
      new ServiceSlot<>(() -> new AuditUnavailableException("the audit log is not running", null));
  private final Vertx vertx;
  private final Contributions contributions;
  private final EventHub events;
  private final RequestDeadlines deadlines;
  private final RefusalDigest refusals;
  private final LoginGate logins;
  private final AdminRouter routes;
  private volatile Router router;
  private final HttpServer server;
  private final ListenerGuard guard;
  private final AuthenticatedAddresses authenticated = new AuthenticatedAddresses();
  private final long refusalTimer;
  private final String url;
  private final String bindAddress;
  private final ConnectionOptions limits;

  /**
   * Starts listening.
   *
   * @throws IllegalArgumentException if a configuration property is invalid (the message names it)
   * @throws IllegalStateException if the address cannot be bound
   */
  @Activate
  public WebServer(
      @Reference Vertx vertx,
      @Reference Accounts accounts,
      @Reference AdminTls tls,
      @Reference InboundConnections inbound,
      @Reference SubsystemChecks subsystems,
      @Reference Contributions contributions,
      WebConfig config) {
    this(
        false,
        vertx,
        accounts,
        subsystems,
        config.banner(),
        Listener.https(WebOptions.from(config), ConnectionOptions.from(config), quietTls(tls)),
        contributions,
        EventHub.HEARTBEAT,
        inbound);
  }

  /**
   * Starts listening; with {@code inbound} (null in route tests) the listener's connections are
   * capped overall and per client address as they are accepted.
   */
  WebServer(
      Vertx vertx,
      Accounts accounts,
      SubsystemChecks subsystems,
      String banner,
      Listener listener,
      Contributions contributions,
      Duration heartbeat,
      InboundConnections inbound) {
    this(true, vertx, accounts, subsystems, banner, listener, contributions, heartbeat, inbound);
  }

  private WebServer(
      boolean started,
      Vertx vertx,
      Accounts accounts,
      SubsystemChecks subsystems,
      String banner,
      Listener listener,
      Contributions contributions,
      Duration heartbeat,
      InboundConnections inbound) {
    this.started = started;
    this.vertx = vertx;
    this.contributions = contributions;
    Clock clock = Clock.systemUTC();
    this.events = new EventHub(vertx, heartbeat, EventHub.MAX_PENDING_FRAMES);
    this.deadlines = new RequestDeadlines(vertx, listener.limits());
    // Rate limits and the refusals' minutes are durations: on the steady clock.
    this.refusals = new RefusalDigest(audit, SteadyClock.system());
    this.logins = new LoginGate(vertx, SteadyClock.system());
    this.routes =
        new AdminRouter(
            vertx,
            new Core(accounts, subsystems, banner, clock, audit, () -> this.started, authenticated),
            contributions,
            events,
            deadlines,
            refusals,
            logins);
    this.router = routes.build();
    HttpServer created =
        vertx
            .createHttpServer(listener.serverOptions())
            .connectionHandler(deadlines::connected)
            .requestHandler(AdminRouter.requiringHost(request -> router.handle(request)));
    try {
      this.server =
          HttpListen.listen(
              created,
              "Bulwark UI",
              listener.bindAddress() + " port " + listener.serverOptions().getPort(),
              "free the port or set httpsPort (PID " + PID + ") to another one",
              START_TIMEOUT_SECONDS);
    } catch (IllegalStateException e) {
      logins.close();
      throw e;
    }
    this.url = listener.url(server.actualPort());
    this.bindAddress = listener.bindAddress();
    this.limits = listener.limits();
    ConnectionOptions limits = listener.limits();
    this.guard =
        inbound == null
            ? null
            : inbound.guard(
                server.actualPort(),
                new ConnectionLimits(limits.maxConnections(), limits.maxPerAddress()));
    authenticated.guardedBy(guard);
    events.start();
    contributions.listen(this);
    // A contribution that came while the first router was being built.
    this.router = routes.build();
    this.refusalTimer =
        vertx.setPeriodic(
            REFUSAL_FLUSH_MILLIS,
            id ->
                vertx.executeBlocking(
                    () -> {
                      refusals.flush();
                      return null;
                    },
                    false));
    LOG.log(Level.INFO, "Bulwark UI at " + url + " (bound to " + listener.bindAddress() + ")");
  }

  /** BCJSSE logs every connection at INFO; keep its logger (a strong reference) at SEVERE. */
  private static final java.util.logging.Logger BCJSSE_LOG =
      java.util.logging.Logger.getLogger("org.bouncycastle.jsse");

  private static AdminTls quietTls(AdminTls tls) {
    BCJSSE_LOG.setLevel(java.util.logging.Level.SEVERE);
    LOG.log(
        Level.INFO,
        "Admin TLS certificate "
            + tls.certificate().getSubjectX500Principal().getName()
            + ", SHA-256 fingerprint "
            + CertificateFingerprint.sha256(tls.certificate()));
    return tls;
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "unbindAudit")
  void bindAudit(AuditLog log) {
    audit.set(log);
  }

  void unbindAudit(AuditLog log) {
    audit.clear(log);
  }

  @Reference(
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      unbind = "unbindStarted")
  void bindStarted(ApplianceStarted mark) {
    started = true;
  }

  void unbindStarted(ApplianceStarted mark) {
    started = false;
  }

  /** Sets the audit log of refused requests (tests). */
  WebServer withAudit(AuditLog log) {
    audit.set(log);
    return this;
  }

  @Override
  public void routesChanged() {
    router = routes.build();
  }

  @Override
  public void topicAdded(EventTopic topic) {
    events.open(topic);
  }

  @Override
  public void topicRemoved(EventTopic topic) {
    events.close(topic);
  }

  /** Stops the event stream and the listener. */
  @Deactivate
  void stop() {
    contributions.unlisten(this);
    events.stop();
    vertx.cancelTimer(refusalTimer);
    refusals.flushAll();
    logins.close();
    if (guard != null) {
      guard.close();
    }
    try {
      server
          .close()
          .toCompletionStage()
          .toCompletableFuture()
          .get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.log(
          Level.WARNING,
          "The Bulwark UI listener at "
              + url
              + " did not close cleanly; its port may stay"
              + " busy until the process exits.",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.log(Level.INFO, "Bulwark UI at " + url + " stopped");
  }

  /** Returns the TCP port actually bound (useful when configured with port 0). */
  public int port() {
    return server.actualPort();
  }

  /**
   * Returns the address a process on this machine reaches the listener at: the bound address, or
   * the loopback when it is bound to every address.
   */
  String localAddress() {
    return switch (bindAddress) {
      case "0.0.0.0" -> "127.0.0.1";
      case "::", "0:0:0:0:0:0:0:0" -> "::1";
      default -> bindAddress;
    };
  }

  /** Returns the limits the listener enforces on its connections. */
  ConnectionOptions limits() {
    return limits;
  }

  /** Returns the URL the log gave for the UI. */
  public String url() {
    return url;
  }

  /** Returns every route the router serves now, with its roles. */
  List<AdminRouter.RouteInfo> routeTable() {
    return routes.table();
  }

  /** Returns the digest that audits refused requests. */
  RefusalDigest refusals() {
    return refusals;
  }

  /** Returns the deadlines that close connections which keep a request waiting. */
  RequestDeadlines deadlines() {
    return deadlines;
  }

  /** Returns how many browsers hold the event stream open. */
  int eventClients() {
    return events.subscriberCount();
  }
}
