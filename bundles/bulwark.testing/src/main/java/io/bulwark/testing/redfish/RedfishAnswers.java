package io.bulwark.testing.redfish;

import com.sun.net.httpserver.HttpExchange;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How {@link RedfishMockupServer} reads its mockup tree (a folder's {@code index.json} is the
 * resource at that path), carries out a reset, and writes its answers as a Redfish service does:
 * the JSON body with {@code OData-Version: 4.0}, Redfish error bodies ({@code error} with
 * {@code @Message.ExtendedInfo}), weak ETags of a resource's JSON, the merge of a PATCH or a
 * scenario's overlay, and paths without a trailing slash. Stateless.
 */
final class RedfishAnswers {
  private RedfishAnswers() {}

  static String normalise(String path) {
    String p = path;
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  static void merge(JsonObject into, JsonObject patch) {
    for (String key : patch.fieldNames()) {
      Object v = patch.getValue(key);
      Object existing = into.getValue(key);
      if (v instanceof JsonObject o && existing instanceof JsonObject e) {
        merge(e, o);
      } else {
        into.put(key, v);
      }
    }
  }

  static String etag(String encoded) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(encoded.getBytes(StandardCharsets.UTF_8));
      return "W/\"" + HexFormat.of().formatHex(hash, 0, 8) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static void error(HttpExchange ex, int status, String id, String message) throws IOException {
    JsonObject body =
        new JsonObject()
            .put(
                "error",
                new JsonObject()
                    .put("code", id)
                    .put("message", message)
                    .put(
                        "@Message.ExtendedInfo",
                        new JsonArray()
                            .add(
                                new JsonObject()
                                    .put("@odata.type", "#Message.v1_1_1.Message")
                                    .put("MessageId", id)
                                    .put("Message", message))));
    send(ex, status, body);
  }

  static void send(HttpExchange ex, int status, JsonObject body) throws IOException {
    send(ex, status, body.encode().getBytes(StandardCharsets.UTF_8));
  }

  static void send(HttpExchange ex, int status, byte[] body) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "application/json;charset=utf-8");
    ex.getResponseHeaders().set("OData-Version", "4.0");
    ex.sendResponseHeaders(status, body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }

  static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  static String carried(HttpExchange ex) {
    String token = ex.getRequestHeaders().getFirst("X-Auth-Token");
    if (token != null) {
      return "X-Auth-Token " + token;
    }
    String auth = ex.getRequestHeaders().getFirst("Authorization");
    return auth != null && auth.startsWith("Basic ") ? "Basic" : "";
  }

  static void reset(JsonObject system, String type) {
    synchronized (system) {
      String before = system.getString("PowerState", "Off");
      String after =
          switch (type) {
            case "ForceOff", "GracefulShutdown" -> "Off";
            case "PushPowerButton" -> before.equals("On") ? "Off" : "On";
            case "Nmi" -> before;
            default -> "On";
          };
      system.put("PowerState", after);
    }
  }

  static JsonObject load(Path root, String path) {
    if (!path.equals("/redfish/v1") && !path.startsWith("/redfish/v1/")) {
      return null;
    }
    String rest = path.substring("/redfish/v1".length());
    Path folder = root;
    for (String part : rest.split("/")) {
      if (part.isEmpty()) {
        continue;
      }
      if (part.equals("..") || part.contains("\\")) {
        return null;
      }
      folder = folder.resolve(part);
    }
    Path file = folder.resolve("index.json");
    if (!file.normalize().startsWith(root.normalize()) || !Files.isRegularFile(file)) {
      return null;
    }
    try (InputStream in = Files.newInputStream(file)) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException | DecodeException e) {
      return null;
    }
  }
}
