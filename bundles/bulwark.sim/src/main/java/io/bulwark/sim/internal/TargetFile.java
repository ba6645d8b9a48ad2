package io.bulwark.sim.internal;

import io.bulwark.lib.files.AtomicFile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The Prometheus {@code file_sd} file that tells scrapers where the simulated nodes are: one entry
 * per node with the simulator's address and the node's metrics path. Written atomically (a
 * temporary file in the same folder, then a rename), so a scraper that watches the file never reads
 * half of it.
 */
final class TargetFile {
  private TargetFile() {}

  /** Returns the file's content for these nodes served at {@code address} ({@code host:port}). */
  static String content(List<String> nodes, String address) {
    JsonArray entries = new JsonArray();
    for (String node : nodes) {
      entries.add(
          new JsonObject()
              .put("targets", new JsonArray().add(address))
              .put(
                  "labels",
                  new JsonObject()
                      .put("__metrics_path__", "/nodes/" + node + "/metrics")
                      .put("node", node)));
    }
    return entries.encodePrettily() + "\n";
  }

  /**
   * Returns the {@code host:port} a scraper reaches a server bound to {@code bindAddress} at: a
   * wildcard address is reached over loopback, and an IPv6 literal is bracketed.
   */
  static String address(String bindAddress, int port) {
    String host =
        switch (bindAddress) {
          case "0.0.0.0" -> "127.0.0.1";
          case "::", "[::]", "0:0:0:0:0:0:0:0" -> "::1";
          default -> bindAddress;
        };
    if (host.contains(":") && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    return host + ":" + port;
  }

  /**
   * Writes {@code content} to {@code file}, creating its folders, and replaces the file in one
   * rename, so that a reader never sees half a list.
   *
   * @throws IOException if the folder cannot be created or written
   */
  static void write(Path file, String content) throws IOException {
    AtomicFile.writeOrdered(file, content.getBytes(StandardCharsets.UTF_8));
  }
}
