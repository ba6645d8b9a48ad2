package io.bulwark.sim.internal;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The control API of the simulated BMCs: {@code GET /sim/bmcs} lists them (node, address, port,
 * power, faults); {@code POST /sim/bmcs/{node}/faults} with {@code {"kind": "fan-failed"}} puts a
 * fault on one (201; see {@link BmcFault}); {@code DELETE /sim/bmcs/{node}/faults} clears its
 * faults and the failure entries of its event log (204). 404 for a node without a BMC, 400 with a
 * problem document for a bad request. Called on the event loop.
 */
final class BmcControl {
  /** The faults the demo scenario puts on BMCs, by node index: one of each detector's. */
  static final Map<Integer, BmcFault> DEMO =
      Map.of(
          4, BmcFault.FAN_FAILED,
          9, BmcFault.PSU_FAILED,
          14, BmcFault.INLET_HOT,
          21, BmcFault.SEL_MEMORY_UE,
          33, BmcFault.VOLTAGE_CRITICAL);

  private final Supplier<SimulatedBmcs> bmcs;
  private final Clock clock;

  BmcControl(Supplier<SimulatedBmcs> bmcs, Clock clock) {
    this.bmcs = bmcs;
    this.clock = clock;
  }

  /** Puts the demo's BMC faults on the nodes that have a BMC. */
  static void demoFaults(SimulatedBmcs bmcs, long nowMillis) {
    List<SimulatedBmcs.Endpoint> all = bmcs.endpoints();
    DEMO.forEach(
        (index, fault) -> {
          if (index < all.size()) {
            bmcs.bmc(all.get(index).node()).ifPresent(b -> b.fault(fault, nowMillis));
          }
        });
  }

  void mount(Router router) {
    router.get("/sim/bmcs").handler(this::list);
    router
        .post("/sim/bmcs/:node/faults")
        .handler(BodyHandler.create(false).setBodyLimit(ControlApi.MAX_BODY_BYTES))
        .handler(this::add);
    router.delete("/sim/bmcs/:node/faults").handler(this::clear);
  }

  private void list(RoutingContext ctx) {
    JsonArray list = new JsonArray();
    SimulatedBmcs all = bmcs.get();
    if (all != null) {
      for (SimulatedBmcs.Endpoint e : all.endpoints()) {
        SimulatedBmc b = all.bmc(e.node()).orElseThrow();
        JsonArray faults = new JsonArray();
        b.faults().stream().map(BmcFault::word).sorted().forEach(faults::add);
        list.add(
            new JsonObject()
                .put("node", e.node())
                .put("address", e.address())
                .put("port", e.port())
                .put("power", b.power())
                .put("bootTarget", b.bootTarget())
                .put("bootEnabled", b.bootEnabled())
                .put("serial", b.serial())
                .put("faults", faults));
      }
    }
    ctx.response().putHeader("Content-Type", "application/json").end(list.encode());
  }

  private void add(RoutingContext ctx) {
    Optional<SimulatedBmc> bmc = bmc(ctx);
    if (bmc.isEmpty()) {
      return;
    }
    String kind;
    try {
      JsonObject body = ctx.body().asJsonObject();
      kind = body == null ? null : body.getString("kind");
    } catch (DecodeException | ClassCastException e) {
      Problem.invalidFault("the body is not a JSON object: " + e.getMessage()).send(ctx.response());
      return;
    }
    Optional<BmcFault> fault = BmcFault.parse(kind);
    if (fault.isEmpty()) {
      JsonArray kinds = new JsonArray();
      for (BmcFault f : BmcFault.values()) {
        kinds.add(f.word());
      }
      Problem.invalidFault("kind must be one of " + kinds.encode() + ", was " + kind)
          .send(ctx.response());
      return;
    }
    bmc.get().fault(fault.get(), clock.millis());
    ctx.response()
        .setStatusCode(201)
        .putHeader("Content-Type", "application/json")
        .end(
            new JsonObject()
                .put("node", bmc.get().node())
                .put("kind", fault.get().word())
                .put("finding", fault.get().finding())
                .encode());
  }

  private void clear(RoutingContext ctx) {
    bmc(ctx)
        .ifPresent(
            b -> {
              b.clearFaults();
              ctx.response().setStatusCode(204).end();
            });
  }

  private Optional<SimulatedBmc> bmc(RoutingContext ctx) {
    String node = ctx.pathParam("node");
    SimulatedBmcs all = bmcs.get();
    Optional<SimulatedBmc> bmc = all == null ? Optional.empty() : all.bmc(node);
    if (bmc.isEmpty()) {
      Problem.unknownNode(node).send(ctx.response());
    }
    return bmc;
  }
}
