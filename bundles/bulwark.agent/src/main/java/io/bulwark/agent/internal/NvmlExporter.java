package io.bulwark.agent.internal;

import io.bulwark.lib.vertx.HttpListen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.lang.System.Logger.Level;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The GPU node agent's endpoint: serves {@code GET /metrics}, a dcgm-exporter compatible page of
 * the node's GPUs read through NVML, on the shared Vert.x, so that the appliance and any Prometheus
 * can scrape a node that runs the agent instead of dcgm-exporter. NVML is sampled off the event
 * loop, at most once per scrape (one sample answers the scrapes of the next {@code
 * sampleReuseMillis}). Registered as a service so that the start-up check can require it.
 */
@Component(
    service = NvmlExporter.class,
    immediate = true,
    configurationPid = "io.bulwark.agent",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = AgentConfig.class)
public final class NvmlExporter {
  private static final System.Logger LOG = System.getLogger(NvmlExporter.class.getName());
  static final String PATH = "/metrics";
  static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
  private static final long START_TIMEOUT_SECONDS = 10;

  private final Vertx vertx;
  private final AgentOptions options;
  private final NvmlSampler sampler;
  private final HttpServer server;

  /**
   * The port of the action channel while it listens (PID io.bulwark.agent.actions configured), else
   * 0: set by the channel, which takes this component's address.
   */
  private volatile int channelPort;

  private volatile String page;
  private volatile long pageMillis;

  @Activate
  public NvmlExporter(@Reference Vertx vertx, AgentConfig config) {
    this(vertx, AgentOptions.from(config));
  }

  NvmlExporter(Vertx vertx, AgentOptions options) {
    this.vertx = vertx;
    this.options = options;
    this.sampler = new NvmlSampler(options.library());
    this.server = listen();
    LOG.log(
        Level.INFO,
        "GPU node agent serves http://{0}:{1}{2} for {3} (NVML library {4})",
        options.bindAddress(),
        String.valueOf(server.actualPort()),
        PATH,
        options.hostname(),
        options.library());
  }

  /** Returns the port the endpoint listens on. */
  int port() {
    return server.actualPort();
  }

  private HttpServer listen() {
    try {
      return HttpListen.listen(
          vertx
              .createHttpServer(
                  new HttpServerOptions().setHost(options.bindAddress()).setPort(options.port()))
              .requestHandler(this::answer),
          "GPU node agent",
          options.bindAddress() + ":" + options.port(),
          "set port and bindAddress of io.bulwark.agent to a free port of this node",
          START_TIMEOUT_SECONDS);
    } catch (IllegalStateException e) {
      sampler.close();
      throw e;
    }
  }

  /** Returns the address the metrics page listens on, as configured. */
  String bindAddress() {
    return options.bindAddress();
  }

  /** Called by the action channel once it listens, with its port, and with 0 when it stops. */
  void channelListening(int port) {
    channelPort = port;
  }

  private String refusal() {
    int actions = channelPort;
    String here =
        "The GPU node agent "
            + options.hostname()
            + " takes no actions on its metrics port: actions are only taken over its mutually"
            + " authenticated action channel";
    if (actions > 0) {
      return here + ", on port " + actions + ", by the appliance it enrolled with.\n";
    }
    return here
        + ", which is not configured on this node, so it refuses actions. To enrol it, ask an"
        + " admin for a one-time enrolment token and configure PID io.bulwark.agent.actions with"
        + " applianceUrl, applianceFingerprint (SHA-256 of the appliance's admin TLS certificate)"
        + " and enrolmentToken (or set BULWARK_AGENT_APPLIANCE_URL,"
        + " BULWARK_AGENT_APPLIANCE_FINGERPRINT and BULWARK_AGENT_ENROLMENT_TOKEN), then restart"
        + " the agent.\n";
  }

  private void answer(HttpServerRequest request) {
    if (request.path().startsWith("/v1/")) {
      request
          .response()
          .setStatusCode(403)
          .putHeader("Content-Type", "text/plain; charset=utf-8")
          .end(refusal());
      return;
    }
    if (!PATH.equals(request.path())) {
      request
          .response()
          .setStatusCode(404)
          .putHeader("Content-Type", "text/plain; charset=utf-8")
          .end("Not found: the GPU node agent serves GET " + PATH + "\n");
      return;
    }
    if (request.method() != HttpMethod.GET) {
      request
          .response()
          .setStatusCode(405)
          .putHeader("Allow", "GET")
          .putHeader("Content-Type", "text/plain; charset=utf-8")
          .end("Only GET is allowed on " + PATH + "\n");
      return;
    }
    currentPage()
        .onSuccess(text -> request.response().putHeader("Content-Type", TEXT_FORMAT).end(text))
        .onFailure(
            error -> {
              LOG.log(Level.ERROR, "Rendering /metrics failed: {0}", error.toString());
              request
                  .response()
                  .setStatusCode(500)
                  .putHeader("Content-Type", "text/plain; charset=utf-8")
                  .end("The GPU node agent could not read the GPUs: " + error + "\n");
            });
  }

  /**
   * Returns the page, sampled on a worker thread; samples are taken one after the other, so that
   * concurrent scrapes share one sample.
   */
  private Future<String> currentPage() {
    return vertx.executeBlocking(
        () -> {
          long now = System.currentTimeMillis();
          String cached = page;
          if (cached != null && now - pageMillis < options.sampleReuseMillis()) {
            return cached;
          }
          String fresh = AgentPage.render(sampler.sample(), options.hostname());
          page = fresh;
          pageMillis = System.currentTimeMillis();
          return fresh;
        },
        true);
  }

  @Deactivate
  void stop() {
    try {
      server.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.log(Level.WARNING, "GPU node agent endpoint did not close cleanly: {0}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sampler.close();
  }
}
