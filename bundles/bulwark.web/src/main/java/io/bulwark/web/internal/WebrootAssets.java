package io.bulwark.web.internal;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Serves UI files: this bundle's {@code webroot/}, read through its own class loader (the same
 * inside an OSGi framework, with bundle: URLs, and on a plain class path, where Vert.x's
 * StaticHandler would depend on the thread context class loader and a file cache on disk), and the
 * folder a page contributor names in its own bundle. Only names made of safe characters with a
 * known file type are served, never anything outside the folder; each file is read once and kept in
 * memory.
 */
final class WebrootAssets implements Handler<RoutingContext> {
  static final String ROOT = "webroot/";

  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "svg", "image/svg+xml",
          "json", "application/json",
          "png", "image/png",
          "ico", "image/x-icon",
          "txt", "text/plain; charset=utf-8");
  private static final Pattern SAFE_NAME =
      Pattern.compile(
          "(?:[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}/){0,8}[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}");
  private static final int MAX_ASSET_BYTES = 4 * 1024 * 1024;

  /** One file of the UI, as sent. */
  private record Asset(Buffer body, String contentType, String etag) {}

  private final Function<String, URL> files;
  private final String prefix;
  private final Map<String, Asset> cache = new ConcurrentHashMap<>();

  /** Serves {@code webroot/} of {@code loader} at the root path. */
  WebrootAssets(ClassLoader loader) {
    this(name -> loader.getResource(ROOT + name), "/");
  }

  /**
   * Serves the files {@code files} finds by name (a relative path) under the URL path {@code
   * prefix}, which ends with '/'.
   */
  WebrootAssets(Function<String, URL> files, String prefix) {
    this.files = files;
    this.prefix = prefix;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String path = ctx.normalizedPath();
    if (!path.startsWith(prefix)) {
      ctx.fail(404);
      return;
    }
    String name = path.equals("/") ? "index.html" : path.substring(prefix.length());
    String type = contentType(name);
    if (type == null || !SAFE_NAME.matcher(name).matches()) {
      ctx.fail(404);
      return;
    }
    Asset cached = cache.get(name);
    if (cached != null) {
      send(ctx, cached);
      return;
    }
    ctx.vertx()
        .executeBlocking(() -> load(name, type))
        .onComplete(
            ar -> {
              if (ar.failed()) {
                ctx.fail(ar.cause());
              } else if (ar.result() == null) {
                ctx.fail(404);
              } else {
                cache.putIfAbsent(name, ar.result());
                send(ctx, ar.result());
              }
            });
  }

  /** Returns the content type for a file name, or null if the type is not served. */
  static String contentType(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? null : TYPES.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
  }

  private Asset load(String name, String type) throws IOException {
    URL url = files.apply(name);
    if (url == null) {
      return null;
    }
    byte[] bytes;
    try (InputStream in = url.openStream()) {
      bytes = in.readNBytes(MAX_ASSET_BYTES + 1);
    }
    if (bytes.length > MAX_ASSET_BYTES) {
      throw new IOException("UI file " + name + " is larger than " + MAX_ASSET_BYTES + " bytes");
    }
    return new Asset(Buffer.buffer(bytes), type, etag(bytes));
  }

  private static void send(RoutingContext ctx, Asset asset) {
    ctx.response().putHeader("ETag", asset.etag()).putHeader("Cache-Control", "no-cache");
    if (asset.etag().equals(ctx.request().getHeader("If-None-Match"))) {
      ctx.response().setStatusCode(304).end();
      return;
    }
    ctx.response().putHeader("Content-Type", asset.contentType()).end(asset.body());
  }

  private static String etag(byte[] bytes) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      return "\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
