package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.store.StoreUnavailableException;
import io.bulwark.lib.vertx.ProblemJson;
import io.bulwark.web.api.ApiProblem;
import io.vertx.core.http.HttpClosedException;
import io.vertx.ext.web.RoutingContext;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.UUID;

/**
 * Writes errors as RFC 9457 problem details ({@code application/problem+json}: type, title, status,
 * detail, instance) for every route, the UI's included. Internal errors are logged with an incident
 * id that the client also gets; stack traces never leave the server.
 */
final class ProblemResponses {
  static final String CONTENT_TYPE = ProblemJson.CONTENT_TYPE;
  static final String TYPE_INVALID_PARAMETER = "urn:bulwark:problem:invalid-parameter";
  static final String TYPE_NOT_FOUND = "urn:bulwark:problem:not-found";
  static final String TYPE_METHOD_NOT_ALLOWED = "urn:bulwark:problem:method-not-allowed";
  static final String TYPE_INTERNAL_ERROR = "urn:bulwark:problem:internal-error";

  /** Seconds a client is asked to wait before retrying a 503. */
  static final String RETRY_AFTER_SECONDS = "5";

  private static final Logger LOG = System.getLogger(ProblemResponses.class.getName());

  private ProblemResponses() {}

  /** Router error handler for 404: no route matched the path. */
  static void notFound(RoutingContext ctx) {
    send(
        ctx,
        404,
        TYPE_NOT_FOUND,
        "Not found",
        "Nothing is served at " + ctx.normalizedPath() + ".",
        null);
  }

  /** Router error handler for 405: a route matched the path, none the method. */
  static void methodNotAllowed(RoutingContext ctx) {
    methodNotAllowed(ctx, Set.of("GET"));
  }

  /** Answers 405 naming {@code allowed}, the methods the path takes. */
  static void methodNotAllowed(RoutingContext ctx, Set<String> allowed) {
    String list = String.join(", ", allowed);
    ctx.response().putHeader("Allow", list);
    send(
        ctx,
        405,
        TYPE_METHOD_NOT_ALLOWED,
        "Method not allowed",
        ctx.request().method().name()
            + " is not allowed on "
            + ctx.normalizedPath()
            + (allowed.isEmpty() ? "." : "; use " + String.join(" or ", allowed) + "."),
        null);
  }

  /**
   * Failure handler: renders an {@link ApiProblem}, a status a handler failed with, or an internal
   * error.
   */
  static void failure(RoutingContext ctx) {
    if (ctx.failure() instanceof HttpClosedException || ctx.response().closed()) {
      // The client went (or a deadline closed its connection): there is no one to answer.
      LOG.log(Level.DEBUG, "Request {0} ended with its connection", ctx.request().path());
      return;
    }
    Throwable failure = unavailable(ctx.failure());
    if (failure instanceof ApiProblem problem) {
      if (problem.retryAfterSeconds() > 0) {
        ctx.response().putHeader("Retry-After", Long.toString(problem.retryAfterSeconds()));
      } else if (problem.status() == 503) {
        ctx.response().putHeader("Retry-After", RETRY_AFTER_SECONDS);
      }
      send(
          ctx,
          problem.status(),
          problem.type(),
          problem.title(),
          problem.getMessage(),
          problem.parameter());
    } else if (failure == null && ctx.statusCode() == 404) {
      notFound(ctx);
    } else if (failure == null && ctx.statusCode() == 405) {
      methodNotAllowed(ctx);
    } else if (ctx.statusCode() == 413) {
      // The body handler's refusal of a body over the limit.
      send(
          ctx,
          413,
          "urn:bulwark:problem:payload-too-large",
          "Request body too large",
          "The request body is larger than the "
              + AdminRouter.MAX_BODY_BYTES / 1024
              + " KiB the API accepts.",
          null);
    } else if (failure == null && ctx.statusCode() >= 400 && ctx.statusCode() < 500) {
      send(
          ctx,
          ctx.statusCode(),
          "urn:bulwark:problem:bad-request",
          "Bad request",
          "The request was refused (" + ctx.statusCode() + ").",
          null);
    } else {
      internalError(ctx);
    }
  }

  /**
   * Returns the problem a refusal by the store or the audit log stands for (503, nothing was
   * changed), looking through the causes; otherwise {@code failure} itself.
   */
  private static Throwable unavailable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof StoreUnavailableException e) {
        return ApiProblem.storeUnavailable(e.getMessage());
      }
      if (t instanceof AuditUnavailableException e) {
        return ApiProblem.auditUnavailable(
            "the action was not carried out because it could not be audited: " + e.getMessage());
      }
    }
    return failure;
  }

  /** Router error handler for 500 and the fallback of {@link #failure}. */
  static void internalError(RoutingContext ctx) {
    String incident = UUID.randomUUID().toString().substring(0, 8);
    LOG.log(
        Level.ERROR,
        "Request "
            + ctx.request().method()
            + " "
            + ctx.request().path()
            + " failed (incident "
            + incident
            + "); the client got a 500. Check the cause below and the state of the service it names.",
        ctx.failure());
    send(
        ctx,
        500,
        TYPE_INTERNAL_ERROR,
        "Internal error",
        "The server could not complete the request; it logged incident " + incident + ".",
        null);
  }

  private static void send(
      RoutingContext ctx, int status, String type, String title, String detail, String parameter) {
    ProblemJson.send(ctx.response(), status, type, title, detail, ctx.request().path(), parameter);
  }
}
