package io.bulwark.web.api;

import io.bulwark.api.security.Principal;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * What a route handler reads of its request and how it answers: the caller the admin plane
 * authenticated, the client's address, the JSON body, and JSON responses (with the headers every
 * API answer carries). Static helpers; thread-safe.
 */
public final class ApiRequest {
  /** The key under which the admin plane puts the caller's {@link Principal} in the context. */
  public static final String CALLER = "bulwark.principal";

  private ApiRequest() {}

  /**
   * Returns who is calling. On a route of a {@link RouteContributor} it is never null: the admin
   * plane authenticated the caller and checked the role before the handler runs.
   */
  public static Principal caller(RoutingContext ctx) {
    return ctx.get(CALLER);
  }

  /** Returns the client's address, as audit records name it, or "unknown". */
  public static String source(RoutingContext ctx) {
    return ctx.request().remoteAddress() == null ? "unknown" : ctx.request().remoteAddress().host();
  }

  /**
   * Returns the request's body as a JSON object.
   *
   * @throws ApiProblem 400 if there is no body or it is not a JSON object
   */
  public static JsonObject body(RoutingContext ctx) {
    try {
      JsonObject body = ctx.body() == null ? null : ctx.body().asJsonObject();
      if (body == null) {
        throw ApiProblem.invalidBody("send a JSON object");
      }
      return body;
    } catch (DecodeException | ClassCastException e) {
      throw ApiProblem.invalidBody("the body is not a JSON object");
    }
  }

  /**
   * Returns the string {@code field} of a request body, {@code fallback} when absent.
   *
   * @throws ApiProblem 400 naming the field if it is there but not a string
   */
  public static String text(JsonObject body, String field, String fallback) {
    Object value = body.getValue(field);
    if (value == null) {
      return fallback;
    }
    if (!(value instanceof String s)) {
      throw ApiProblem.invalidBody("'" + field + "' must be a string");
    }
    return s;
  }

  /** Answers with {@code body}, with the status set so far (200 unless the handler set one). */
  public static void json(RoutingContext ctx, JsonObject body) {
    json(ctx, ctx.response().getStatusCode(), body.encode());
  }

  /** Answers {@code status} with {@code body}. */
  public static void json(RoutingContext ctx, int status, JsonObject body) {
    json(ctx, status, body.encode());
  }

  /** Answers with {@code body}, with the status set so far (200 unless the handler set one). */
  public static void json(RoutingContext ctx, JsonArray body) {
    json(ctx, ctx.response().getStatusCode(), body.encode());
  }

  private static void json(RoutingContext ctx, int status, String encoded) {
    ctx.response()
        .setStatusCode(status)
        .putHeader("Content-Type", "application/json")
        .putHeader("Cache-Control", "no-store")
        .end(encoded);
  }
}
