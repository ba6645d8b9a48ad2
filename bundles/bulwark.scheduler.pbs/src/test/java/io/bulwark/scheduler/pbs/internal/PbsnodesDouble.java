package io.bulwark.scheduler.pbs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The pbsnodes test double (src/test/resources/.../pbsnodes, a Python 3 script that follows the
 * OpenPBS and Torque pbsnodes documentation and sources; see its header) installed in a bin folder
 * of its own, with the nodes it serves in pbsnodes-state.json next to it. No PBS server can run on
 * the build machine, so the connector's tests run against this instead. The test reads and edits
 * the state as the server would change it (a job ends) and reads back the arguments of every call.
 */
final class PbsnodesDouble {
  private final Path bin;
  private JsonObject state;

  private PbsnodesDouble(Path bin, JsonObject state) {
    this.bin = bin;
    this.state = state;
  }

  /** Installs the double for {@code flavour} ("openpbs" or "torque") under {@code folder}. */
  static PbsnodesDouble install(Path folder, String flavour, boolean executable) {
    assertThat(onPath("python3")).as("the pbsnodes test double needs python3 on PATH").isPresent();
    try {
      Path bin = Files.createDirectories(folder.resolve("bin"));
      Path script = bin.resolve("pbsnodes");
      try (InputStream in = PbsnodesDouble.class.getResourceAsStream("pbsnodes")) {
        assertThat(in).as("test resource pbsnodes").isNotNull();
        Files.copy(in, script);
      }
      if (executable) {
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
      } else {
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
      }
      JsonObject state =
          new JsonObject()
              .put("flavour", flavour)
              .put("server", flavour.equals("torque") ? "torque-head" : "pbs-head")
              .put("pbs_version", flavour.equals("torque") ? "6.1.3" : "23.06.06")
              .putNull("fault")
              .put("nodes", new JsonObject());
      PbsnodesDouble pbs = new PbsnodesDouble(bin, state);
      pbs.save();
      return pbs;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static PbsnodesDouble install(Path folder, String flavour) {
    return install(folder, flavour, true);
  }

  /** The folder to configure as binDir. */
  Path bin() {
    return bin;
  }

  /** Options for a connector that runs this double. */
  PbsOptions options(String flavour, Optional<String> server, Duration timeout) {
    return new PbsOptions("pbs", PbsFlavour.of(flavour), bin.resolve("pbsnodes"), server, timeout);
  }

  /** Adds or replaces a node with these attributes, as the server holds them. */
  PbsnodesDouble node(String name, JsonObject attributes) {
    load();
    state.getJsonObject("nodes").put(name, attributes);
    save();
    return this;
  }

  /** Returns a node's attributes as the server now holds them, or null. */
  JsonObject node(String name) {
    load();
    return state.getJsonObject("nodes").getJsonObject(name);
  }

  /**
   * Ends every job on a node as the server records it: the jobs attribute goes and the job-* state
   * words with it ("free" if nothing is left).
   */
  void endJobs(String name) {
    load();
    JsonObject node = state.getJsonObject("nodes").getJsonObject(name);
    node.remove("jobs");
    List<String> words = new ArrayList<>();
    for (String word : node.getString("state").split(",")) {
      if (!word.startsWith("job-") && !word.isBlank()) {
        words.add(word);
      }
    }
    node.put("state", words.isEmpty() ? "free" : String.join(",", words));
    save();
  }

  /** Makes every later call misbehave as {@code fault} says (see the double's header). */
  void fault(JsonObject fault) {
    load();
    state.put("fault", fault);
    save();
  }

  /** The arguments of every call so far, oldest first. */
  List<List<String>> calls() {
    Path log = bin.resolve("pbsnodes-calls.log");
    if (!Files.exists(log)) {
      return List.of();
    }
    try {
      List<List<String>> calls = new ArrayList<>();
      for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
        List<String> arguments = new ArrayList<>();
        new JsonArray(line).forEach(a -> arguments.add((String) a));
        calls.add(arguments);
      }
      return calls;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The arguments of the last call. */
  List<String> lastCall() {
    List<List<String>> calls = calls();
    assertThat(calls).as("calls of pbsnodes").isNotEmpty();
    return calls.get(calls.size() - 1);
  }

  private void load() {
    try {
      state =
          new JsonObject(
              Files.readString(bin.resolve("pbsnodes-state.json"), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void save() {
    try {
      Files.writeString(
          bin.resolve("pbsnodes-state.json"), state.encodePrettily(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Optional<Path> onPath(String command) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String folder : path.split(java.io.File.pathSeparator)) {
      Path candidate = Path.of(folder, command);
      if (!folder.isEmpty() && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
