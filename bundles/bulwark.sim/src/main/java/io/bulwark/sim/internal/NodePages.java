package io.bulwark.sim.internal;

import io.vertx.core.http.HttpConnection;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.util.Optional;

/**
 * Serves each simulated node's dcgm-exporter page at {@code GET /nodes/{node}/metrics}, rendered
 * for the moment of the request. A node under a {@code telemetry-stale} fault does not answer: it
 * closes the connection, or (mode {@code hang}) leaves the request open, past any scrape timeout,
 * until the scraper gives up or {@link #HANG_MILLIS} pass. A node whose simulated BMC has powered
 * it off does not answer either. Called on the event loop; a page for 8 GPUs renders in tens of
 * microseconds.
 */
final class NodePages {
  static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

  /** How long a hanging node holds a scrape before it closes the connection. */
  static final long HANG_MILLIS = 60_000;

  private final SimulatedFleet fleet;
  private final Clock clock;
  private final java.util.function.Predicate<String> poweredOff;

  NodePages(SimulatedFleet fleet, Clock clock) {
    this(fleet, clock, node -> false);
  }

  /** Serves the pages; a node {@code poweredOff} says is off (its BMC's power) does not answer. */
  NodePages(SimulatedFleet fleet, Clock clock, java.util.function.Predicate<String> poweredOff) {
    this.fleet = fleet;
    this.clock = clock;
    this.poweredOff = poweredOff;
  }

  void mount(Router router) {
    router.get("/nodes/:node/metrics").handler(this::page);
  }

  private void page(RoutingContext ctx) {
    String node = ctx.pathParam("node");
    long now = clock.millis();
    if (poweredOff.test(node)) {
      ctx.request().connection().close(); // a machine that is off serves no exporter
      return;
    }
    Optional<Fault> silent = fleet.silence(node, now);
    if (silent.isPresent()) {
      HttpConnection connection = ctx.request().connection();
      if (silent.get().value() == FaultKind.STALE_HANG) {
        long timer = ctx.vertx().setTimer(HANG_MILLIS, id -> connection.close());
        connection.closeHandler(closed -> ctx.vertx().cancelTimer(timer));
      } else {
        connection.close();
      }
      return;
    }
    fleet
        .page(node, now)
        .ifPresentOrElse(
            page -> ctx.response().putHeader("Content-Type", TEXT_FORMAT).end(page),
            () -> Problem.unknownNode(node).send(ctx.response()));
  }
}
