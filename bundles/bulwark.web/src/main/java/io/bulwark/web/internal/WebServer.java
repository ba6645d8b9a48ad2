package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditExport;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.AdminTls;
import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.SecretStore;
import io.bulwark.api.security.TokenRepository;
import io.bulwark.api.security.UserRepository;
import io.bulwark.api.system.ConnectionLimits;
import io.bulwark.api.system.InboundConnections;
import io.bulwark.api.system.ListenerGuard;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The admin plane: the operator's web UI and its JSON API, served by Vert.x Web on the shared
 * Vert.x instance. Finding changes reach the open browsers through the event stream, fed by {@link
 * FindingFeed}. Listens when activated and stops listening when deactivated.
 */
@Component(
    service = WebServer.class,
    immediate = true,
    configurationPid = WebServer.PID,
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = WebConfig.class)
public final class WebServer {
  /** The configuration PID. */
  public static final String PID = "io.bulwark.web";

  private static final Logger LOG = System.getLogger(WebServer.class.getName());
  private static final long START_TIMEOUT_SECONDS = 30;
  private static final long STOP_TIMEOUT_SECONDS = 10;

  private final EventStream events;
  private final FindingFeed feed;
  private final java.util.function.Consumer<Finding> feedSubscriber = this::findingChanged;
  private static final long REFUSAL_FLUSH_MILLIS = 5_000;

  private final Vertx vertx;
  private final RequestDeadlines deadlines;
  private final RefusalDigest refusals;
  private final LoginGate logins;
  private final long refusalTimer;
  private final HttpServer server;
  private final ListenerGuard guard;
  private final String url;

  /**
   * Starts listening.
   *
   * @throws IllegalArgumentException if a configuration property is invalid (the message names it)
   * @throws IllegalStateException if the address cannot be bound
   */
  @Activate
  public WebServer(
      @Reference Vertx vertx,
      @Reference HealthService health,
      @Reference FleetRepository fleet,
      @Reference TelemetryQuery telemetry,
      @Reference TelemetryTargets targets,
      @Reference FindingFeed feed,
      @Reference SubsystemChecks subsystems,
      @Reference CryptoModule crypto,
      @Reference SecretStore secrets,
      @Reference AdminTls tls,
      @Reference Accounts accounts,
      @Reference AuditLog audit,
      @Reference AuditExport auditExport,
      @Reference UserRepository users,
      @Reference TokenRepository tokens,
      @Reference InboundConnections inbound,
      BundleContext context,
      WebConfig config) {
    this(
        vertx,
        new AdminServices(
            health,
            fleet,
            telemetry,
            targets,
            BundleInventory.of(context),
            new SecurityPosture(crypto::status, secrets::sealedToTpm),
            accounts,
            audit,
            auditExport,
            users,
            tokens,
            tls,
            config.banner(),
            new GpuHourPrice(config.gpuHourPrice(), config.currency()),
            subsystems,
            Clock.systemUTC()),
        Listener.https(WebOptions.from(config), ConnectionOptions.from(config), quietTls(tls)),
        EventStream.Timing.STANDARD,
        feed,
        inbound);
  }

  WebServer(Vertx vertx, AdminServices services, Listener listener, EventStream.Timing timing) {
    this(vertx, services, listener, timing, new FindingFeed(), null);
  }

  /**
   * Starts listening; with {@code inbound} (null in route tests) the listener's connections are
   * capped overall and per client address as they are accepted.
   */
  WebServer(
      Vertx vertx,
      AdminServices services,
      Listener listener,
      EventStream.Timing timing,
      FindingFeed feed,
      InboundConnections inbound) {
    this.events = new EventStream(vertx, services, timing, EventStream.MAX_PENDING_FRAMES);
    this.feed = feed;
    this.deadlines = new RequestDeadlines(vertx, listener.limits());
    this.vertx = vertx;
    this.refusals = new RefusalDigest(services.audit(), services.clock());
    this.logins = new LoginGate(vertx, services.clock());
    HttpServer created =
        vertx
            .createHttpServer(listener.serverOptions())
            .connectionHandler(deadlines::connected)
            .requestHandler(
                AdminRouter.requiringHost(
                    AdminRouter.create(vertx, services, events, deadlines, refusals, logins)));
    try {
      this.server =
          created
              .listen()
              .toCompletionStage()
              .toCompletableFuture()
              .get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      created.close();
      logins.close();
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      throw new IllegalStateException(
          "Bulwark UI could not listen on "
              + listener.bindAddress()
              + " port "
              + listener.serverOptions().getPort()
              + ": "
              + cause.getMessage()
              + ". Free the port or set httpsPort (PID "
              + PID
              + ") to another one.",
          cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      created.close();
      logins.close();
      throw new IllegalStateException("interrupted while starting the Bulwark UI listener", e);
    }
    this.url = listener.url(server.actualPort());
    ConnectionOptions limits = listener.limits();
    this.guard =
        inbound == null
            ? null
            : inbound.guard(
                server.actualPort(),
                new ConnectionLimits(limits.maxConnections(), limits.maxPerAddress()));
    events.start();
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
    feed.subscribe(feedSubscriber);
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

  /** Stops the event stream and the listener. */
  @Deactivate
  void stop() {
    feed.unsubscribe(feedSubscriber);
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

  /** Sends a finding change to every open event stream. */
  void findingChanged(Finding finding) {
    events.publishFinding(finding);
  }

  /** Returns the TCP port actually bound (useful when configured with port 0). */
  public int port() {
    return server.actualPort();
  }

  /** Returns the URL the log gave for the UI. */
  public String url() {
    return url;
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
