package io.bulwark.web.api;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/**
 * Receives the body of a {@link ApiRoute#upload} request into a file, streaming: at most one write
 * queue's worth of it is in memory, the request is paused while the disk catches up, and its
 * SHA-256 is computed on the way. The file is created new (readable by the appliance's user only)
 * and deleted again if the upload fails: bigger than allowed, silent for longer than allowed, cut
 * short by the client, or the disk refusing it.
 */
public final class ApiUpload {
  /** What was received: its size and SHA-256 (lower-case hex). */
  public record Received(Path file, long bytes, String sha256) {}

  private ApiUpload() {}

  /**
   * Streams the request's body into {@code file} (which must not exist; its folder must).
   *
   * @param maxBytes the most the body may hold; more fails the upload with a 413 problem
   * @param idleSeconds how long the client may send nothing before the upload fails (408)
   * @return what was received, or a failure with an {@link ApiProblem} in words
   */
  public static Future<Received> receive(
      RoutingContext ctx, Path file, long maxBytes, int idleSeconds) {
    Vertx vertx = ctx.vertx();
    HttpServerRequest request = ctx.request();
    Promise<Received> done = Promise.promise();
    String length = request.getHeader("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.strip()) > maxBytes) {
          request.resume();
          return Future.failedFuture(
              ApiProblem.payloadTooLarge(
                  "the upload is "
                      + length.strip()
                      + " bytes; at most "
                      + maxBytes
                      + " are taken"));
        }
      } catch (NumberFormatException e) {
        return Future.failedFuture(ApiProblem.invalidBody("Content-Length is not a number"));
      }
    }
    MessageDigest sha256;
    try {
      sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      return Future.failedFuture(new IllegalStateException("no SHA-256 in the crypto module", e));
    }
    vertx
        .fileSystem()
        .open(
            file.toString(),
            new OpenOptions()
                .setCreateNew(true)
                .setWrite(true)
                .setRead(false)
                .setPerms("rw-------"))
        .onFailure(
            e ->
                done.fail(
                    ApiProblem.unavailable(
                        "the upload cannot be written to " + file + ": " + e.getMessage())))
        .onSuccess(
            out ->
                new Stream(request, out, file, sha256, done).start(vertx, maxBytes, idleSeconds));
    return done.future();
  }

  /** One upload under way; its handlers all run on the request's event loop. */
  private static final class Stream {
    private final HttpServerRequest request;
    private final AsyncFile out;
    private final Path file;
    private final MessageDigest sha256;
    private final Promise<Received> done;
    private long bytes;
    private long lastData = System.nanoTime();
    private boolean stopping;

    Stream(
        HttpServerRequest request,
        AsyncFile out,
        Path file,
        MessageDigest sha256,
        Promise<Received> done) {
      this.request = request;
      this.out = out;
      this.file = file;
      this.sha256 = sha256;
      this.done = done;
    }

    void start(Vertx vertx, long maxBytes, int idleSeconds) {
      long idleTimer =
          vertx.setPeriodic(
              1_000,
              id -> {
                if (System.nanoTime() - lastData > TimeUnit.SECONDS.toNanos(idleSeconds)) {
                  fail(
                      ApiProblem.requestTimeout(
                          "the upload sent nothing for " + idleSeconds + " s; it was dropped"));
                }
              });
      done.future().onComplete(r -> vertx.cancelTimer(idleTimer));
      out.exceptionHandler(e -> fail(ApiProblem.unavailable("the disk refused the upload: " + e)));
      request.exceptionHandler(e -> fail(ApiProblem.invalidBody("the upload broke off: " + e)));
      request.handler(
          chunk -> {
            if (stopping) {
              return;
            }
            lastData = System.nanoTime();
            bytes += chunk.length();
            if (bytes > maxBytes) {
              fail(ApiProblem.payloadTooLarge("the upload is over " + maxBytes + " bytes"));
              return;
            }
            sha256.update(chunk.getBytes());
            out.write(chunk);
            if (out.writeQueueFull()) {
              request.pause();
              out.drainHandler(v -> request.resume());
            }
          });
      request.endHandler(
          v -> {
            if (stopping) {
              return;
            }
            stopping = true;
            out.close()
                .onSuccess(
                    x ->
                        done.tryComplete(
                            new Received(file, bytes, HexFormat.of().formatHex(sha256.digest()))))
                .onFailure(
                    e -> {
                      stopping = false;
                      fail(ApiProblem.unavailable("the upload could not be closed: " + e));
                    });
          });
      request.resume();
    }

    /** Stops taking the body, deletes what was written, then fails the upload. */
    void fail(Throwable why) {
      if (stopping || done.future().isComplete()) {
        return;
      }
      stopping = true;
      out.close()
          .onComplete(
              r -> {
                try {
                  Files.deleteIfExists(file);
                } catch (java.io.IOException e) {
                  // left for the caller's clean-up of its folder
                }
                done.tryFail(why);
              });
    }
  }
}
