package io.bulwark.lib.vertx;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * Writes an error as RFC 9457 problem details ({@code application/problem+json}), the one way every
 * Bulwark HTTP endpoint answers one: type, title, status, a detail that tells the caller what to
 * change, the path it asked for, and the parameter at fault if any. Never a stack trace. Static
 * helpers; thread-safe.
 */
public final class ProblemJson {
  /** The media type of a problem. */
  public static final String CONTENT_TYPE = "application/problem+json";

  /** What every Bulwark problem type starts with, e.g. {@code urn:bulwark:problem:not-found}. */
  public static final String TYPE_PREFIX = "urn:bulwark:problem:";

  private ProblemJson() {}

  /**
   * Answers {@code response} with the problem, not to be cached. If the response's head is already
   * written (a stream that failed halfway), the stream is reset instead: a client must not take
   * half an answer for a whole one.
   *
   * @param instance the path the client asked for, or null
   * @param parameter the query or path parameter at fault, or null
   */
  public static void send(
      HttpServerResponse response,
      int status,
      String type,
      String title,
      String detail,
      String instance,
      String parameter) {
    if (response.headWritten()) {
      response.reset();
      return;
    }
    JsonObject body =
        new JsonObject()
            .put("type", type)
            .put("title", title)
            .put("status", status)
            .put("detail", detail);
    if (instance != null) {
      body.put("instance", instance);
    }
    if (parameter != null) {
      body.put("parameter", parameter);
    }
    response
        .setStatusCode(status)
        .putHeader("Content-Type", CONTENT_TYPE)
        .putHeader("Cache-Control", "no-store")
        .end(body.encode());
  }
}
