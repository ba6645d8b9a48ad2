package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.ApiUpload;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Uploads: a contributed {@link ApiRoute#upload} route gets its body unread, after the caller was
 * authenticated and authorised, and streams it to disk with {@link ApiUpload}: bigger than the
 * admin plane ever reads into memory, refused when too big or silent, and nothing written for a
 * caller it refuses.
 */
class UploadTest {
  private static final long LIMIT = 80L << 20;
  private final FleetFixture fixture = new FleetFixture();
  private final AtomicInteger handled = new AtomicInteger();
  @TempDir Path dir;
  private Vertx vertx;
  private WebServer server;

  private record Routes(String name, List<ApiRoute> routes) implements RouteContributor {}

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    server = fixture.start(vertx);
    fixture.contributions.addRoutes(
        new Routes(
            "files",
            List.of(
                ApiRoute.upload(
                    "/api/v1/files/:name",
                    Set.of(Role.ADMIN),
                    ctx -> {
                      handled.incrementAndGet();
                      ApiUpload.receive(ctx, dir.resolve(ctx.pathParam("name")), LIMIT, 2)
                          .onSuccess(
                              r ->
                                  ApiRequest.json(
                                      ctx,
                                      201,
                                      new JsonObject()
                                          .put("bytes", r.bytes())
                                          .put("sha256", r.sha256())))
                          .onFailure(ctx::fail);
                    }))));
  }

  @AfterEach
  void stop() {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  /** {@code mib} MiB of a pattern, made as it is sent. */
  private static HttpRequest.BodyPublisher pattern(int mib) {
    return HttpRequest.BodyPublishers.ofInputStream(
        () ->
            new InputStream() {
              long left = (long) mib << 20;

              @Override
              public int read() {
                return left-- > 0 ? (int) (left * 31 & 0xff) : -1;
              }

              @Override
              public int read(byte[] b, int off, int len) {
                if (left <= 0) {
                  return -1;
                }
                int n = (int) Math.min(len, left);
                for (int i = 0; i < n; i++) {
                  b[off + i] = (byte) ((left - 1 - i) * 31 & 0xff);
                }
                left -= n;
                return n;
              }
            });
  }

  private static String sha256(int mib) throws Exception {
    MessageDigest d = MessageDigest.getInstance("SHA-256");
    byte[] buf = new byte[1 << 16];
    long left = (long) mib << 20;
    while (left > 0) {
      int n = (int) Math.min(buf.length, left);
      for (int i = 0; i < n; i++) {
        buf[i] = (byte) ((left - 1 - i) * 31 & 0xff);
      }
      d.update(buf, 0, n);
      left -= n;
    }
    return HexFormat.of().formatHex(d.digest());
  }

  @Test
  void aBodyFarBiggerThanTheJsonLimitIsStreamedToDiskWithItsDigest() throws Exception {
    ApiClient admin = new ApiClient(server.port());
    HttpResponse<String> r =
        admin.send(
            admin
                .request("/api/v1/files/big.img")
                .header("Content-Type", "application/octet-stream")
                .POST(pattern(64))
                .timeout(java.time.Duration.ofSeconds(60))
                .build());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    JsonObject body = new JsonObject(r.body());
    assertThat(body.getLong("bytes")).isEqualTo(64L << 20);
    assertThat(body.getString("sha256")).isEqualTo(sha256(64));
    assertThat(Files.size(dir.resolve("big.img"))).isEqualTo(64L << 20);
    assertThat(Files.getPosixFilePermissions(dir.resolve("big.img")))
        .containsExactlyInAnyOrder(
            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);

    HttpResponse<String> again =
        admin.send(
            admin
                .request("/api/v1/files/big.img")
                .POST(HttpRequest.BodyPublishers.ofString("x"))
                .build());
    assertThat(again.statusCode()).as("never over a file that exists").isEqualTo(503);
    assertThat(Files.size(dir.resolve("big.img"))).isEqualTo(64L << 20);
  }

  @Test
  void tooBigIsRefusedAndLeavesNothing() {
    ApiClient admin = new ApiClient(server.port());
    // Declared too big: refused before a byte is read.
    HttpResponse<String> declared =
        admin.send(
            admin
                .request("/api/v1/files/huge.img")
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[(int) LIMIT + 1]))
                .build());
    assertThat(declared.statusCode()).isEqualTo(413);
    // Sent without a length and bigger than allowed: cut off when it passes the limit.
    HttpResponse<String> streamed =
        admin.send(
            admin
                .request("/api/v1/files/huge.img")
                .POST(pattern(81))
                .timeout(java.time.Duration.ofSeconds(60))
                .build());
    assertThat(streamed.statusCode()).as(streamed.body()).isEqualTo(413);
    assertThat(dir.resolve("huge.img")).doesNotExist();
  }

  @Test
  void aCallerWhoIsRefusedHasNothingWrittenAndTheHandlerNeverRuns() {
    HttpResponse<String> anonymous =
        new ApiClient(server.port(), null)
            .send(
                new ApiClient(server.port(), null)
                    .request("/api/v1/files/x.img")
                    .POST(pattern(8))
                    .build());
    assertThat(anonymous.statusCode()).isEqualTo(401);
    ApiClient operator = new ApiClient(server.port(), "operator-token");
    HttpResponse<String> refused =
        operator.send(operator.request("/api/v1/files/x.img").POST(pattern(8)).build());
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(handled).hasValue(0);
    assertThat(dir.resolve("x.img")).doesNotExist();
    // The JSON routes still read their bodies.
    assertThat(new ApiClient(server.port()).get("/api/v1/nodes").statusCode()).isEqualTo(200);
  }

  @Test
  void anUploadThatFallsSilentIsDroppedAndDeleted() throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(15_000);
      OutputStream out = s.getOutputStream();
      out.write(
          ("POST /api/v1/files/stalled.img HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  + "Authorization: Bearer admin-token\r\nContent-Length: 100000\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(new byte[1000]);
      out.flush();
      String answer = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(answer).isEqualTo("HTTP/1.1 408");
    }
    Thread.sleep(200);
    assertThat(dir.resolve("stalled.img")).doesNotExist();
  }
}
