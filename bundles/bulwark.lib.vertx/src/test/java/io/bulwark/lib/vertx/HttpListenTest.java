package io.bulwark.lib.vertx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A port that is taken is refused in the operator's words, naming the endpoint and the remedy. */
class HttpListenTest {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private HttpServer server(int port) {
    return vertx
        .createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port))
        .requestHandler(r -> r.response().end("ok"));
  }

  @Test
  void aServerListensAndAPortThatIsTakenIsAnOperatorsError() {
    HttpServer first = HttpListen.listen(server(0), "Test endpoint", "127.0.0.1:0", "pick one", 10);
    int port = first.actualPort();
    assertThat(port).isPositive();

    assertThatThrownBy(
            () ->
                HttpListen.listen(
                    server(port), "Second endpoint", "127.0.0.1:" + port, "choose a free port", 10))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Second endpoint cannot listen on 127.0.0.1:" + port + " (")
        .hasMessageEndingWith("); choose a free port");
  }
}
