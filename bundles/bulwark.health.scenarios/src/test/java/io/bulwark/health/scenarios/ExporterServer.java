package io.bulwark.health.scenarios;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.util.concurrent.TimeUnit;

/**
 * Serves the pages of a scenario's exporters on 127.0.0.1 (ephemeral port), one path per node
 * ({@code /node/<index>/metrics}), as they read at the replay's present second; a node whose
 * exporter is down has its connection closed without an answer. Started and stopped by the replay.
 */
final class ExporterServer implements AutoCloseable {
  private final HttpServer server;
  private volatile int second;

  ExporterServer(Vertx vertx, ScenarioFleet fleet) {
    this.server =
        vertx
            .createHttpServer()
            .requestHandler(
                request -> {
                  String[] parts = request.path().split("/");
                  int node;
                  try {
                    node = parts.length == 4 ? Integer.parseInt(parts[2]) : -1;
                  } catch (NumberFormatException e) {
                    node = -1;
                  }
                  int t = second;
                  if (node < 0) {
                    request.response().setStatusCode(404).end("no such exporter\n");
                  } else if (fleet.isDown(node, t)) {
                    request.connection().close();
                  } else {
                    request
                        .response()
                        .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                        .end(fleet.page(node, t));
                  }
                });
    await(server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture());
  }

  /** Returns the port the server listens on. */
  int port() {
    return server.actualPort();
  }

  /** Sets the second whose pages are served from now on. */
  void showSecond(int t) {
    second = t;
  }

  @Override
  public void close() {
    await(server.close().toCompletionStage().toCompletableFuture());
  }

  private static <T> T await(java.util.concurrent.CompletableFuture<T> future) {
    try {
      return future.get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("exporter server did not start or stop", e);
    }
  }
}
