package io.bulwark.sim.internal;

import io.bulwark.lib.vertx.ProblemJson;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;

/**
 * An HTTP error answered as {@code application/problem+json} (RFC 9457) with a type, a title, the
 * status and a detail that tells the caller what to change. Used by every route of the simulator.
 */
record Problem(String type, String title, int status, String detail) {
  private static final String TYPE_PREFIX = ProblemJson.TYPE_PREFIX;

  static Problem invalidFault(String detail) {
    return new Problem(TYPE_PREFIX + "invalid-fault", "Invalid fault", 400, detail);
  }

  static Problem unknownFault(String id) {
    return new Problem(
        TYPE_PREFIX + "unknown-fault",
        "Unknown fault",
        404,
        "no fault with id '" + id + "' is active; GET /sim/faults lists the active faults");
  }

  static Problem unknownNode(String node) {
    return new Problem(
        TYPE_PREFIX + "unknown-node",
        "Unknown node",
        404,
        "the simulated fleet has no node '" + node + "'; GET /sim/nodes lists the nodes");
  }

  /** Answers the response with this problem. */
  void send(HttpServerResponse response) {
    ProblemJson.send(response, status, type, title, detail, null, null);
  }

  /**
   * Makes the router answer unmatched paths, wrong methods, oversized bodies and failures as
   * problems.
   */
  static void answerRouterErrors(Router router, System.Logger log) {
    router.errorHandler(
        404,
        ctx ->
            new Problem(
                    TYPE_PREFIX + "not-found",
                    "Not found",
                    404,
                    "the simulator serves GET /nodes/{node}/metrics, GET /sim/nodes and /sim/faults")
                .send(ctx.response()));
    router.errorHandler(
        405,
        ctx ->
            new Problem(
                    TYPE_PREFIX + "method-not-allowed",
                    "Method not allowed",
                    405,
                    ctx.request().method() + " is not supported on " + ctx.request().path())
                .send(ctx.response()));
    router.errorHandler(
        413,
        ctx ->
            new Problem(
                    TYPE_PREFIX + "body-too-large",
                    "Request body too large",
                    413,
                    "a fault request must be a small JSON object")
                .send(ctx.response()));
    router.errorHandler(
        500,
        ctx -> {
          log.log(
              System.Logger.Level.ERROR,
              "Simulator failed to answer " + ctx.request().method() + " " + ctx.request().path(),
              ctx.failure());
          new Problem(
                  TYPE_PREFIX + "internal-error",
                  "Internal error",
                  500,
                  "the simulator failed to answer; its log holds the cause")
              .send(ctx.response());
        });
  }
}
