package io.bulwark.web.api;

/**
 * A request the API refuses, with what the client should know: the HTTP status, the problem type, a
 * title and a detail in the operator's words, the query or path parameter at fault if any, and how
 * long to wait before retrying if that helps. Thrown by route handlers; the admin plane answers it
 * as an RFC 9457 {@code application/problem+json} response. Never carries a stack trace to the
 * client.
 */
public final class ApiProblem extends RuntimeException {
  /** The problem type of an invalid query or path parameter. */
  public static final String TYPE_INVALID_PARAMETER = "urn:bulwark:problem:invalid-parameter";

  /** The problem type of something that does not exist. */
  public static final String TYPE_NOT_FOUND = "urn:bulwark:problem:not-found";

  private static final long serialVersionUID = 1L;

  private final int status;
  private final String type;
  private final String title;
  private final String parameter;
  private final long retryAfterSeconds;

  private ApiProblem(
      int status,
      String type,
      String title,
      String detail,
      String parameter,
      long retryAfterSeconds) {
    super(detail, null, false, false);
    this.status = status;
    this.type = type;
    this.title = title;
    this.parameter = parameter;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  private static ApiProblem of(int status, String name, String title, String detail) {
    return new ApiProblem(status, "urn:bulwark:problem:" + name, title, detail, null, 0);
  }

  /** A request whose body stopped arriving (408). */
  public static ApiProblem requestTimeout(String detail) {
    return of(408, "request-timeout", "Request timeout", detail);
  }

  /** A query or path parameter with a value the API cannot use (400). */
  public static ApiProblem invalidParameter(String parameter, String detail) {
    return new ApiProblem(400, TYPE_INVALID_PARAMETER, "Invalid parameter", detail, parameter, 0);
  }

  /** Something the request names that does not exist (404). */
  public static ApiProblem notFound(String detail) {
    return new ApiProblem(404, TYPE_NOT_FOUND, "Not found", detail, null, 0);
  }

  /** No credentials, or credentials that are not (or no longer) valid (401). */
  public static ApiProblem unauthenticated(String detail) {
    return of(401, "unauthenticated", "Authentication required", detail);
  }

  /** Authenticated, but not allowed to do this (403). */
  public static ApiProblem forbidden(String detail) {
    return of(403, "forbidden", "Forbidden", detail);
  }

  /** A request body the API cannot use (400). */
  public static ApiProblem invalidBody(String detail) {
    return of(400, "invalid-body", "Invalid request body", detail);
  }

  /** The request is malformed at the HTTP level (400). */
  public static ApiProblem badRequest(String detail) {
    return of(400, "bad-request", "Bad request", detail);
  }

  /** The request conflicts with the current state, e.g. deleting the last admin (409). */
  public static ApiProblem conflict(String detail) {
    return of(409, "conflict", "Conflict", detail);
  }

  /** The body is larger than the API accepts (413). */
  public static ApiProblem payloadTooLarge(String detail) {
    return of(413, "payload-too-large", "Request body too large", detail);
  }

  /** The body is not of the media type the route takes (415). */
  public static ApiProblem unsupportedMediaType(String detail) {
    return of(415, "unsupported-media-type", "Unsupported media type", detail);
  }

  /** Too many requests from this client; retry after {@code seconds} (429). */
  public static ApiProblem tooManyRequests(String detail, long seconds) {
    return new ApiProblem(
        429, "urn:bulwark:problem:too-many-requests", "Too many requests", detail, null, seconds);
  }

  /** The audit log cannot record the action, so it is not carried out (503). */
  public static ApiProblem auditUnavailable(String detail) {
    return of(503, "audit-unavailable", "Audit log unavailable", detail);
  }

  /** The store cannot take the action now; nothing was changed (503, retry later). */
  public static ApiProblem storeUnavailable(String detail) {
    return of(503, "store-unavailable", "Store unavailable", detail);
  }

  /** What the request needs is not running now, e.g. its bundle is being updated (503). */
  public static ApiProblem unavailable(String detail) {
    return of(503, "unavailable", "Service unavailable", detail);
  }

  /** The service cannot take the request now; retry in a few seconds (503). */
  public static ApiProblem busy(String detail) {
    return of(503, "busy", "Service busy", detail);
  }

  /** Returns the HTTP status. */
  public int status() {
    return status;
  }

  /** Returns the problem type URI. */
  public String type() {
    return type;
  }

  /** Returns the short title. */
  public String title() {
    return title;
  }

  /** Returns the parameter at fault, or null. */
  public String parameter() {
    return parameter;
  }

  /** Returns the seconds the client should wait before retrying, or 0 for the status' default. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
