package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** What the remediation tests ask of a running appliance: faults, runs, their steps. */
final class Runs {
  private Runs() {}

  /** Injects XID 79 on {@code node}'s GPU through the simulator. */
  static void injectXid79(RunningAppliance bulwark, String node, int gpu) throws Exception {
    JsonObject fault =
        new JsonObject().put("kind", "xid").put("node", node).put("gpu", gpu).put("xid", 79);
    HttpResponse<String> r = bulwark.send("POST", bulwark.simUrl("/sim/faults"), fault.encode());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
  }

  /** Returns the name of the step a run is at, or "" once it has none. */
  static String currentStep(JsonObject run) {
    JsonArray steps = run.getJsonArray("steps");
    int i = run.getInteger("current");
    return i < steps.size() ? steps.getJsonObject(i).getString("step") : "";
  }

  /** Returns the run's step called {@code name}. */
  static JsonObject step(JsonObject run, String name) {
    for (Object o : run.getJsonArray("steps")) {
      JsonObject s = (JsonObject) o;
      if (s.getString("step").equals(name)) {
        return s;
      }
    }
    throw new AssertionError("no step " + name + " in " + run.encodePrettily());
  }

  /**
   * Issues an API token valid for a day as the logged-in admin; returns the answer (201), with the
   * secret in {@code token} and the id in {@code id}.
   */
  static JsonObject issueToken(RunningAppliance bulwark, String name, String role)
      throws Exception {
    HttpResponse<String> r =
        bulwark.send(
            "POST",
            bulwark.baseUrl() + "/api/v1/tokens",
            new JsonObject().put("name", name).put("role", role).put("validityDays", 1).encode());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    return new JsonObject(r.body());
  }

  /** GETs a JSON object, which must be answered 200. */
  static JsonObject get(RunningAppliance bulwark, String path) throws Exception {
    HttpResponse<String> r = bulwark.get(path);
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return new JsonObject(r.body());
  }

  /**
   * Fails unless the appliance answered {@code path}: once started, a route answers (200, or 404
   * for what does not exist yet), never 5xx, so a wait does not ask again after a 503.
   */
  static void assertAnswered(HttpResponse<String> r, String path) {
    assertThat(r.statusCode()).as("GET %s once started: %s", path, r.body()).isLessThan(500);
  }

  /** GETs {@code path} until its answer passes {@code test}; fails with the last answer. */
  static JsonObject await(
      RunningAppliance bulwark, String path, Predicate<JsonObject> test, int seconds)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    JsonObject last = null;
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r = bulwark.get(path);
      assertAnswered(r, path);
      if (r.statusCode() == 200) {
        last = new JsonObject(r.body());
        if (test.test(last)) {
          return last;
        }
      }
      Thread.sleep(500);
    }
    throw new AssertionError(
        path
            + " did not reach the expected state within "
            + seconds
            + " s; last: "
            + (last == null ? "none" : last.encodePrettily())
            + "\n"
            + bulwark.console());
  }
}
