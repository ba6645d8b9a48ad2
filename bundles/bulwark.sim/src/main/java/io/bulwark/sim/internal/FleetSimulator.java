package io.bulwark.sim.internal;

import io.bulwark.api.security.AdminTls;
import io.bulwark.lib.vertx.HttpListen;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The fleet simulator of the demo role and of end-to-end tests: serves a dcgm-exporter page per
 * simulated node and the control API on one HTTP listener (on the shared Vert.x), writes the
 * Prometheus {@code file_sd} targets once it listens, and plays the configured scenario. Never part
 * of the hardened image.
 */
@Component(
    service = FleetSimulator.class,
    configurationPid = "io.bulwark.sim",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = SimulatorConfig.class)
public final class FleetSimulator {
  private static final System.Logger LOG = System.getLogger(FleetSimulator.class.getName());
  private static final long START_TIMEOUT_SECONDS = 10;
  private static final long PRUNE_PERIOD_MILLIS = 1_000;

  private final Vertx vertx;
  private final Running running;
  private final long seed;

  /** What runs while the simulator is enabled. */
  private record Running(
      SimulatedFleet fleet,
      FaultBook faults,
      HttpServer server,
      long pruneTimer,
      long startTimer,
      long cycleTimer,
      SimulatedBmcs bmcs,
      String bmcFingerprint) {}

  /**
   * Starts the simulator; with the appliance's TLS identity its first {@code bmcs} nodes get
   * simulated BMCs that present it.
   */
  @Activate
  public FleetSimulator(
      @Reference Vertx vertx,
      @Reference(
              cardinality = ReferenceCardinality.OPTIONAL,
              policyOption = ReferencePolicyOption.GREEDY)
          AdminTls tls,
      SimulatorConfig config) {
    this(vertx, SimulatorOptions.from(config), Clock.systemUTC(), tls);
  }

  FleetSimulator(Vertx vertx, SimulatorOptions options, Clock clock) {
    this(vertx, options, clock, null);
  }

  FleetSimulator(Vertx vertx, SimulatorOptions options, Clock clock, AdminTls tls) {
    this.vertx = vertx;
    this.seed = options.seed();
    if (!options.enabled()) {
      LOG.log(Level.INFO, "Fleet simulator is off (enabled=false): no simulated nodes are served");
      this.running = null;
      return;
    }
    this.running = start(options, clock, tls);
  }

  private Running start(SimulatorOptions options, Clock clock, AdminTls tls) {
    FaultBook faults = new FaultBook();
    SimulatedFleet fleet =
        new SimulatedFleet(
            options.nodes(),
            options.gpusPerNode(),
            options.nodePrefix(),
            options.seed(),
            clock.millis(),
            faults,
            options.fields().metrics());
    Router router = Router.router(vertx);
    java.util.concurrent.atomic.AtomicReference<SimulatedBmcs> bmcs =
        new java.util.concurrent.atomic.AtomicReference<>();
    new NodePages(
            fleet,
            clock,
            node -> {
              SimulatedBmcs b = bmcs.get();
              return b != null && b.bmc(node).map(m -> "Off".equals(m.power())).orElse(false);
            })
        .mount(router);
    new ControlApi(fleet, faults, clock).mount(router);
    new BmcControl(bmcs::get, clock).mount(router);
    Problem.answerRouterErrors(router, LOG);

    HttpServer server = listen(router, options);
    String fingerprint = "";
    if (options.bmcs() > 0) {
      if (tls == null) {
        LOG.log(
            Level.INFO,
            "Fleet simulator serves no BMCs: the appliance's TLS identity is not available");
      } else if (!loopback(options.bindAddress())) {
        LOG.log(
            Level.WARNING,
            "Fleet simulator serves no BMCs: they need a loopback bind address (127.0.0.1), not {0}",
            options.bindAddress());
      } else {
        List<String> withBmc =
            fleet.nodes().subList(0, Math.min(options.bmcs(), fleet.nodes().size()));
        try {
          bmcs.set(
              new SimulatedBmcs(
                  vertx,
                  withBmc,
                  options.gpusPerNode(),
                  options.seed(),
                  tls.keyManagers(),
                  new SimulatedBmcs.Options(
                      server.actualPort(), BMC_USER, bmcPassword(options.seed()), 0, 0, 0, 1_500),
                  clock));
          bmcs.get().onPowerCycle(node -> faults.clearForReboot(node, clock.millis()));
          fingerprint = SimulatedBmcs.fingerprint(tls.certificate().getEncoded());
        } catch (java.security.cert.CertificateEncodingException | RuntimeException e) {
          close(server);
          throw new IllegalStateException(
              "Fleet simulator could not start its BMCs: " + e.getMessage(), e);
        }
      }
    }
    String address = TargetFile.address(options.bindAddress(), server.actualPort());
    try {
      TargetFile.write(options.fileSd(), TargetFile.content(fleet.nodes(), address));
    } catch (IOException e) {
      close(server);
      throw new IllegalStateException(
          "Fleet simulator cannot write its file_sd targets to "
              + options.fileSd().toAbsolutePath()
              + " ("
              + e
              + "); set fileSd to a writable path",
          e);
    }

    long cycleTimer = -1;
    long startTimer = -1;
    if (options.scenario() == Scenario.DEMO) {
      DemoScenario demo = new DemoScenario(fleet, faults, options.seed());
      // The fleet first runs healthy for a while, so that the inventory learns every GPU as
      // commissioning would;
      // then the scripted faults arrive (a GPU that was never seen cannot be reported missing).
      startTimer =
          vertx.setTimer(
              DemoScenario.FIRST_FAULTS_DELAY_MILLIS,
              id -> {
                demo.start(clock.millis());
                if (bmcs.get() != null) {
                  BmcControl.demoFaults(bmcs.get(), clock.millis());
                }
              });
      cycleTimer =
          vertx.setPeriodic(
              DemoScenario.FIRST_CYCLE_DELAY_MILLIS,
              DemoScenario.CYCLE_PERIOD_MILLIS,
              id -> demo.cycle(clock.millis()));
    }
    long pruneTimer = vertx.setPeriodic(PRUNE_PERIOD_MILLIS, id -> faults.prune(clock.millis()));
    LOG.log(
        Level.INFO,
        "Fleet simulator serves {0} nodes x {1} GPUs at http://{2}/nodes/<node>/metrics"
            + " (scenario {3}, seed {4}); file_sd targets written to {5}",
        options.nodes(),
        options.gpusPerNode(),
        address,
        options.scenario().word(),
        options.seed(),
        options.fileSd().toAbsolutePath());
    return new Running(
        fleet, faults, server, pruneTimer, startTimer, cycleTimer, bmcs.get(), fingerprint);
  }

  /** The user name the simulated BMCs accept. */
  static final String BMC_USER = "bulwark-sim";

  /**
   * The password the simulated BMCs accept: derived from the seed, so that it stays the same across
   * restarts of the demo (its machines keep it sealed) and appears in no file or log.
   */
  static String bmcPassword(long seed) {
    try {
      byte[] d =
          java.security.MessageDigest.getInstance("SHA-256", "BCFIPS")
              .digest(
                  ("bulwark simulated BMC " + seed)
                      .getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return "Sim-" + java.util.HexFormat.of().formatHex(d, 0, 12);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("the FIPS module offers no SHA-256: " + e.getMessage(), e);
    }
  }

  private static boolean loopback(String address) {
    return address.startsWith("127.") || address.equals("localhost");
  }

  /** Returns the simulated BMCs, or empty when there are none. */
  java.util.Optional<SimulatedBmcs> bmcs() {
    return running == null
        ? java.util.Optional.empty()
        : java.util.Optional.ofNullable(running.bmcs());
  }

  /** Returns the SHA-256 fingerprint of the certificate the simulated BMCs present, or "". */
  String bmcFingerprint() {
    return running == null ? "" : running.bmcFingerprint();
  }

  /** Returns the seed of the simulated fleet. */
  long seed() {
    return seed;
  }

  private HttpServer listen(Router router, SimulatorOptions options) {
    return HttpListen.listen(
        vertx
            .createHttpServer(
                new HttpServerOptions().setHost(options.bindAddress()).setPort(options.port()))
            .requestHandler(router),
        "Fleet simulator",
        options.bindAddress() + ":" + options.port(),
        "choose a free port, or port 0 for any",
        START_TIMEOUT_SECONDS);
  }

  @Deactivate
  void stop() {
    if (running == null) {
      return;
    }
    vertx.cancelTimer(running.pruneTimer());
    vertx.cancelTimer(running.startTimer());
    if (running.cycleTimer() >= 0) {
      vertx.cancelTimer(running.cycleTimer());
    }
    if (running.bmcs() != null) {
      running.bmcs().close();
    }
    close(running.server());
    LOG.log(Level.INFO, "Fleet simulator stopped; its nodes no longer answer scrapes");
  }

  private static void close(HttpServer server) {
    try {
      server.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.log(Level.WARNING, "Fleet simulator listener did not close cleanly: {0}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Returns the port the simulator listens on, or -1 when it is off. */
  int port() {
    return running == null ? -1 : running.server().actualPort();
  }

  /** Returns the faults the simulator holds, or null when it is off. */
  FaultBook faults() {
    return running == null ? null : running.faults();
  }
}
