package io.bulwark.lib.vertx;

import io.vertx.core.http.HttpServer;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Starts an HTTP server listening and waits for it, the one way Bulwark's endpoints (the admin
 * plane, the simulator, the node agent) do: a port that is taken, an address that is not this
 * machine's, or a listen that does not finish in time is an error in the operator's words, naming
 * the endpoint, where it tried to listen and what to change. Static helpers; thread-safe.
 */
public final class HttpListen {
  private HttpListen() {}

  /**
   * Makes {@code server} listen (on the host and port of its options) and waits at most {@code
   * timeoutSeconds}.
   *
   * @param what the endpoint, e.g. "Fleet simulator"
   * @param where the address and port it listens on, as the operator set them
   * @param remedy what to change if it cannot listen, e.g. "choose a free port, or port 0 for any"
   * @return the listening server
   * @throws IllegalStateException if it does not listen; the server is closed
   */
  public static HttpServer listen(
      HttpServer server, String what, String where, String remedy, long timeoutSeconds) {
    try {
      return server
          .listen()
          .toCompletionStage()
          .toCompletableFuture()
          .get(timeoutSeconds, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      server.close();
      throw new IllegalStateException(
          what + " cannot listen on " + where + " (" + e.getCause().getMessage() + "); " + remedy,
          e.getCause());
    } catch (TimeoutException e) {
      server.close();
      throw new IllegalStateException(
          what
              + " did not start listening on "
              + where
              + " within "
              + timeoutSeconds
              + " s; "
              + remedy,
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      server.close();
      throw new IllegalStateException(what + " was interrupted while starting on " + where, e);
    }
  }
}
