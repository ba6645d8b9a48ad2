package io.bulwark.web.api;

import io.bulwark.api.security.Principal;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

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

  /**
   * Returns {@code body} if it has no fields but {@code fields}: a strict reader, so that a
   * misspelt or unsupported field is refused instead of silently ignored.
   *
   * @throws ApiProblem 400 naming every unknown field and the fields the request takes
   * @since 1.3
   */
  public static JsonObject onlyFields(JsonObject body, String... fields) {
    Set<String> unknown = new TreeSet<>(body.fieldNames());
    unknown.removeAll(List.of(fields));
    if (!unknown.isEmpty()) {
      throw ApiProblem.invalidBody(
          (unknown.size() == 1 ? "unknown field " : "unknown fields ")
              + String.join(", ", unknown.stream().limit(10).map(ApiRequest::quoted).toList())
              + (unknown.size() > 10 ? " and " + (unknown.size() - 10) + " more" : "")
              + "; this request takes "
              + (fields.length == 0
                  ? "no fields"
                  : String.join(", ", new TreeSet<>(List.of(fields)))));
    }
    return body;
  }

  private static String quoted(String field) {
    return "'" + (field.length() > 64 ? field.substring(0, 64) + "…" : field) + "'";
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
