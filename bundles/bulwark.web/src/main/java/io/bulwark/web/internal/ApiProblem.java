package io.bulwark.web.internal;

/**
 * A request the API refuses, with what the client should know: the HTTP status, the problem type, a
 * title and a detail, and the query or path parameter at fault if any. Thrown by the API handlers
 * and turned into an RFC 9457 {@code application/problem+json} response by {@link
 * ProblemResponses}.
 */
final class ApiProblem extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String type;
  private final String title;
  private final String parameter;
  private final long retryAfterSeconds;

  private ApiProblem(int status, String type, String title, String detail, String parameter) {
    this(status, type, title, detail, parameter, 0);
  }

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

  /** Too many requests from this client; retry after {@code seconds} (429). */
  static ApiProblem tooManyRequests(String detail, long seconds) {
    return new ApiProblem(
        429, "urn:bulwark:problem:too-many-requests", "Too many requests", detail, null, seconds);
  }

  /** The service cannot take the request now; retry in a few seconds (503). */
  static ApiProblem busy(String detail) {
    return new ApiProblem(503, "urn:bulwark:problem:busy", "Service busy", detail, null);
  }

  /** The body is larger than the API accepts (413). */
  static ApiProblem payloadTooLarge(String detail) {
    return new ApiProblem(
        413, "urn:bulwark:problem:payload-too-large", "Request body too large", detail, null);
  }

  /** The request is malformed at the HTTP level, e.g. has no Host header (400). */
  static ApiProblem badRequest(String detail) {
    return new ApiProblem(400, "urn:bulwark:problem:bad-request", "Bad request", detail, null);
  }

  /** The body is not of the media type the route takes (415). */
  static ApiProblem unsupportedMediaType(String detail) {
    return new ApiProblem(
        415, "urn:bulwark:problem:unsupported-media-type", "Unsupported media type", detail, null);
  }

  /** A query or path parameter with a value the API cannot use (400). */
  static ApiProblem invalidParameter(String parameter, String detail) {
    return new ApiProblem(
        400, ProblemResponses.TYPE_INVALID_PARAMETER, "Invalid parameter", detail, parameter);
  }

  /** Something the request names that does not exist (404). */
  static ApiProblem notFound(String detail) {
    return new ApiProblem(404, ProblemResponses.TYPE_NOT_FOUND, "Not found", detail, null);
  }

  /** No credentials, or credentials that are not (or no longer) valid (401). */
  static ApiProblem unauthenticated(String detail) {
    return new ApiProblem(
        401, "urn:bulwark:problem:unauthenticated", "Authentication required", detail, null);
  }

  /** Authenticated, but not allowed to do this (403). */
  static ApiProblem forbidden(String detail) {
    return new ApiProblem(403, "urn:bulwark:problem:forbidden", "Forbidden", detail, null);
  }

  /** A request body the API cannot use (400). */
  static ApiProblem invalidBody(String detail) {
    return new ApiProblem(
        400, "urn:bulwark:problem:invalid-body", "Invalid request body", detail, null);
  }

  /** The request conflicts with the current state, e.g. deleting the last admin (409). */
  static ApiProblem conflict(String detail) {
    return new ApiProblem(409, "urn:bulwark:problem:conflict", "Conflict", detail, null);
  }

  /** The audit log cannot record the action, so it is not carried out (503). */
  static ApiProblem auditUnavailable(String detail) {
    return new ApiProblem(
        503, "urn:bulwark:problem:audit-unavailable", "Audit log unavailable", detail, null);
  }

  /** The store cannot take the action now; nothing was changed (503, retry later). */
  static ApiProblem storeUnavailable(String detail) {
    return new ApiProblem(
        503, "urn:bulwark:problem:store-unavailable", "Store unavailable", detail, null);
  }

  int status() {
    return status;
  }

  String type() {
    return type;
  }

  String title() {
    return title;
  }

  /** Seconds the client should wait before retrying, or 0 for the default of the status. */
  long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /** The parameter at fault, or null. */
  String parameter() {
    return parameter;
  }
}
