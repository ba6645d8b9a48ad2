package io.bulwark.sim.internal;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Clock;

/**
 * The simulator's control API, JSON over HTTP: {@code GET /sim/nodes} lists the node names; {@code
 * GET /sim/faults} lists the active faults; {@code POST /sim/faults} puts a fault on a GPU (201
 * with the fault and its id; see {@link FaultRequest} and {@link FaultKind} for the body); {@code
 * GET} and {@code DELETE /sim/faults/{id}} read and clear one (404 if unknown). Bad requests are
 * answered 400 with a problem document. Used by end-to-end tests and by whoever runs a demo; called
 * on the event loop.
 */
final class ControlApi {
  static final long MAX_BODY_BYTES = 16 * 1024;
  private static final String JSON = "application/json";

  private final SimulatedFleet fleet;
  private final FaultBook faults;
  private final Clock clock;

  ControlApi(SimulatedFleet fleet, FaultBook faults, Clock clock) {
    this.fleet = fleet;
    this.faults = faults;
    this.clock = clock;
  }

  void mount(Router router) {
    router.get("/sim/nodes").handler(this::nodes);
    router.get("/sim/faults").handler(this::list);
    router
        .post("/sim/faults")
        .handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES))
        .handler(this::add);
    router.get("/sim/faults/:id").handler(this::get);
    router.delete("/sim/faults/:id").handler(this::delete);
  }

  private void nodes(RoutingContext ctx) {
    json(ctx.response(), 200).end(new JsonArray(fleet.nodes()).encode());
  }

  private void list(RoutingContext ctx) {
    JsonArray list = new JsonArray();
    faults.current(clock.millis()).forEach(f -> list.add(f.toJson()));
    json(ctx.response(), 200).end(list.encode());
  }

  private void add(RoutingContext ctx) {
    FaultRequest request;
    try {
      request = FaultRequest.parse(ctx.body().buffer(), fleet);
    } catch (IllegalArgumentException e) {
      Problem.invalidFault(e.getMessage()).send(ctx.response());
      return;
    }
    Fault fault =
        faults.add(
            request.node(),
            request.gpu(),
            request.kind(),
            request.value(),
            clock.millis(),
            request.durationMillis());
    json(ctx.response(), 201)
        .putHeader("Location", "/sim/faults/" + fault.id())
        .end(fault.toJson().encode());
  }

  private void get(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    faults
        .get(id, clock.millis())
        .ifPresentOrElse(
            f -> json(ctx.response(), 200).end(f.toJson().encode()),
            () -> Problem.unknownFault(id).send(ctx.response()));
  }

  private void delete(RoutingContext ctx) {
    String id = ctx.pathParam("id");
    long now = clock.millis();
    faults.prune(now);
    if (faults.remove(id, now).isPresent()) {
      ctx.response().setStatusCode(204).end();
    } else {
      Problem.unknownFault(id).send(ctx.response());
    }
  }

  private static HttpServerResponse json(HttpServerResponse response, int status) {
    return response.setStatusCode(status).putHeader("Content-Type", JSON);
  }
}
