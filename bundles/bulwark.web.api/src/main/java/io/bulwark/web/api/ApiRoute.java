package io.bulwark.web.api;

import io.bulwark.api.security.Role;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One route of the JSON API: method, path (under {@code /api/v1/}, with {@code :name} for a path
 * parameter), the roles it admits, and its handler. The admin plane authenticates the caller,
 * checks the role, reads the body (JSON, at most 16 KiB) and then calls the handler: on a worker
 * thread ({@link Execution#WORKER}, for anything that may block) or on the event loop; an upload
 * ({@link Execution#STREAMED}) gets its body unread, to stream. Whatever the handler throws becomes
 * a problem answer: an {@link ApiProblem} as it says, a refusal of the store or the audit log as
 * 503, anything else as a 500 with an incident id.
 *
 * @param method the HTTP method
 * @param path the path, e.g. {@code /api/v1/machines/:machine}
 * @param roles the roles admitted; never empty (a route every role may use lists them all)
 * @param execution where the handler runs
 * @param handler what answers the request
 */
public record ApiRoute(
    HttpMethod method,
    String path,
    Set<Role> roles,
    Execution execution,
    Handler<RoutingContext> handler) {

  /** Every role: the read-only views. */
  public static final Set<Role> ANY_ROLE = Set.copyOf(EnumSet.allOf(Role.class));

  private static final Pattern PATH = Pattern.compile("/api/v1(/(:?[a-z0-9][a-z0-9._-]*))+");

  /** Where a handler runs. */
  public enum Execution {
    /** On a worker thread: may block (store, audit log, files). */
    WORKER,
    /** On the event loop: must not block. */
    EVENT_LOOP,
    /**
     * On the event loop, with the body not read: the caller is authenticated and authorised before
     * a byte of it is taken, and the handler streams it ({@link ApiUpload#receive}). For uploads
     * bigger than the admin plane reads into memory.
     *
     * @since 1.2
     */
    STREAMED
  }

  /**
   * @throws IllegalArgumentException if the path is not under {@code /api/v1/} in lower case, or no
   *     role is admitted
   */
  public ApiRoute {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(execution, "execution");
    Objects.requireNonNull(handler, "handler");
    if (!PATH.matcher(path).matches()) {
      throw new IllegalArgumentException(
          "a route's path must be /api/v1/ and lower-case segments (':name' for a parameter), not '"
              + path
              + "'");
    }
    if (roles == null || roles.isEmpty()) {
      throw new IllegalArgumentException(
          "the route " + method + " " + path + " admits no role: every route must name its roles");
    }
    roles = Set.copyOf(roles);
  }

  /** A GET served on a worker. */
  public static ApiRoute get(String path, Set<Role> roles, Handler<RoutingContext> handler) {
    return new ApiRoute(HttpMethod.GET, path, roles, Execution.WORKER, handler);
  }

  /** A POST served on a worker. */
  public static ApiRoute post(String path, Set<Role> roles, Handler<RoutingContext> handler) {
    return new ApiRoute(HttpMethod.POST, path, roles, Execution.WORKER, handler);
  }

  /** A PUT served on a worker. */
  public static ApiRoute put(String path, Set<Role> roles, Handler<RoutingContext> handler) {
    return new ApiRoute(HttpMethod.PUT, path, roles, Execution.WORKER, handler);
  }

  /** A DELETE served on a worker. */
  public static ApiRoute delete(String path, Set<Role> roles, Handler<RoutingContext> handler) {
    return new ApiRoute(HttpMethod.DELETE, path, roles, Execution.WORKER, handler);
  }

  /**
   * A POST whose body the handler streams ({@link Execution#STREAMED}): an upload of any size the
   * handler allows, of any media type.
   *
   * @since 1.2
   */
  public static ApiRoute upload(String path, Set<Role> roles, Handler<RoutingContext> handler) {
    return new ApiRoute(HttpMethod.POST, path, roles, Execution.STREAMED, handler);
  }

  /** Returns true if the route changes state (anything but GET, HEAD and OPTIONS). */
  public boolean changesState() {
    return !(method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS);
  }
}
