package io.bulwark.sim.internal;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;

/**
 * Serves each simulated node's dcgm-exporter page at {@code GET /nodes/{node}/metrics}, rendered
 * for the moment of the request. Called on the event loop; a page for 8 GPUs renders in tens of
 * microseconds.
 */
final class NodePages {
  static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

  private final SimulatedFleet fleet;
  private final Clock clock;

  NodePages(SimulatedFleet fleet, Clock clock) {
    this.fleet = fleet;
    this.clock = clock;
  }

  void mount(Router router) {
    router.get("/nodes/:node/metrics").handler(this::page);
  }

  private void page(RoutingContext ctx) {
    String node = ctx.pathParam("node");
    fleet
        .page(node, clock.millis())
        .ifPresentOrElse(
            page -> ctx.response().putHeader("Content-Type", TEXT_FORMAT).end(page),
            () -> Problem.unknownNode(node).send(ctx.response()));
  }
}
