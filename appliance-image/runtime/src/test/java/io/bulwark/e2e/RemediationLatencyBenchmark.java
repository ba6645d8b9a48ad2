package io.bulwark.e2e;

import io.bulwark.testing.slurm.SlurmCluster;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Benchmark harness (not a test; run by hand, see docs/benchmarks.md): the demo appliance and a
 * real Slurm cluster (slurmctld, one slurmd per node, munge) whose nodes are the demo's. A policy
 * that only drains, waits and resumes answers XID findings; every round injects XID 79 on every
 * node at once (the isolation limit raised to 100%, cooldown and flap limits off), waits until
 * every run has ended, clears the faults and waits until the findings are resolved. Per run it
 * reports finding opened (the finding's first sighting) to drain issued (the drain step's own
 * timestamp) and drain issued to DRAINED as slurmctld reports it (the harness polls {@code scontrol
 * show node} every 20 ms on its own thread, so this is Slurm's time, not the run's 2 s poll).
 *
 * <p>Arguments: NODES (10), ROUNDS (5). System property {@code bulwark.demo.jar}: the demo jar.
 */
public final class RemediationLatencyBenchmark {
  private RemediationLatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Path work = Files.createTempDirectory("remediation-bench");
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= nodes; i++) {
      names.add(String.format(Locale.ROOT, "gpu-node-%03d", i));
    }
    Map<String, String> env = new HashMap<>();
    env.put("BULWARK_SIM_NODES", Integer.toString(nodes));
    env.put("BULWARK_SIM_SCENARIO", "none");
    env.put("BULWARK_SIM_BMCS", "0");
    env.put("BULWARK_REMEDIATION_MODE", "automatic");
    List<Double> toDrain = new ArrayList<>();
    List<Double> toDrained = new ArrayList<>();
    try (SlurmCluster slurm = SlurmCluster.start(work.resolve("slurm"), names)) {
      env.put("BULWARK_SLURM_CONF", slurm.slurmConf().toString());
      try (RunningAppliance bulwark = RunningAppliance.demo(work.resolve("appliance"), env)) {
        bulwark.awaitUp(Duration.ofSeconds(90));
        bulwark.login();
        put(
            bulwark,
            "/api/v1/remediation/guardrails",
            new JsonObject()
                .put("maxIsolatedPercent", 100)
                .put("maxIsolatedPerRack", 0)
                .put("minAvailablePerPool", 0)
                .put("flapRuns", 100)
                .put("cooldownMinutes", 0));
        put(
            bulwark,
            "/api/v1/remediation/policies/bench-drain",
            new JsonObject()
                .put("name", "drain and resume")
                .put("kinds", new JsonArray().add("xid"))
                .put("steps", new JsonArray().add("drain").add("wait-drained").add("resume"))
                .put("mode", "automatic")
                .put("priority", 1000));
        waitFor(() -> schedulers(bulwark).contains("slurm"), 60, "the Slurm connector");
        for (int round = 1; round <= rounds; round++) {
          Map<String, Instant> drainedAt = new ConcurrentHashMap<>();
          Thread watcher = watch(slurm, names, drainedAt);
          List<String> faults = new ArrayList<>();
          for (String n : names) {
            JsonObject f =
                new JsonObject().put("kind", "xid").put("node", n).put("gpu", 0).put("xid", 79);
            HttpResponse<String> r =
                bulwark.send("POST", bulwark.simUrl("/sim/faults"), f.encode());
            faults.add(new JsonObject(r.body()).getString("id"));
          }
          int expected = nodesDone(names.size(), round);
          waitFor(() -> endedRuns(bulwark) >= expected, 180, "round " + round);
          watcher.interrupt();
          watcher.join();
          for (Object o :
              get(bulwark, "/api/v1/remediation/runs?limit=" + names.size()).getJsonArray("runs")) {
            JsonObject run = (JsonObject) o;
            JsonObject drain = run.getJsonArray("steps").getJsonObject(0);
            Instant issued =
                Instant.parse(drain.getJsonObject("evidence").getString("drainIssued"));
            JsonObject finding = get(bulwark, "/api/v1/findings/" + run.getString("findingId"));
            Instant opened = Instant.parse(finding.getJsonObject("finding").getString("firstSeen"));
            Instant drained = drainedAt.get(run.getString("hostname"));
            toDrain.add(Duration.between(opened, issued).toMillis() / 1000.0);
            if (drained != null) {
              toDrained.add(Math.max(0, Duration.between(issued, drained).toMillis()) / 1000.0);
            }
          }
          for (String id : faults) {
            bulwark.send("DELETE", bulwark.simUrl("/sim/faults/" + id), null);
          }
          String clearing = "the findings of round " + round + " to clear";
          waitFor(() -> openXid(bulwark) == 0, 120, clearing);
          System.out.printf("round %d of %d: %d runs%n", round, rounds, names.size());
        }
      }
    }
    System.out.printf(
        "finding opened -> drain issued: median %.2f s, p99 %.2f s, max %.2f s (%d runs)%n",
        pct(toDrain, 50), pct(toDrain, 99), pct(toDrain, 100), toDrain.size());
    System.out.printf(
        "drain issued -> DRAINED in slurmctld: median %.3f s, p99 %.3f s, max %.3f s (%d runs)%n",
        pct(toDrained, 50), pct(toDrained, 99), pct(toDrained, 100), toDrained.size());
  }

  private static int nodesDone(int nodes, int round) {
    return nodes * round;
  }

  private static Thread watch(
      SlurmCluster slurm, List<String> nodes, Map<String, Instant> drainedAt) {
    Thread t =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                for (String line : slurm.run("sinfo", "-h", "-N", "-o", "%N %T").split("\n")) {
                  String[] p = line.trim().split("\\s+");
                  if (p.length == 2 && nodes.contains(p[0]) && p[1].startsWith("drained")) {
                    drainedAt.putIfAbsent(p[0], Instant.now());
                  }
                }
                try {
                  Thread.sleep(20);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "drained-watcher");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static int endedRuns(RunningAppliance bulwark) throws Exception {
    JsonObject runs = get(bulwark, "/api/v1/remediation").getJsonObject("runs");
    return runs.getInteger("succeeded") + runs.getInteger("failed") + runs.getInteger("escalated");
  }

  private static int openXid(RunningAppliance bulwark) throws Exception {
    HttpResponse<String> r = bulwark.get("/api/v1/findings?state=open&kind=xid");
    JsonObject body = new JsonObject(r.body());
    return body.getJsonArray("findings", new JsonArray()).size();
  }

  private static List<String> schedulers(RunningAppliance bulwark) throws Exception {
    List<String> out = new ArrayList<>();
    get(bulwark, "/api/v1/remediation")
        .getJsonArray("schedulers")
        .forEach(s -> out.add((String) s));
    return out;
  }

  private static JsonObject get(RunningAppliance bulwark, String path) throws Exception {
    HttpResponse<String> r = bulwark.get(path);
    if (r.statusCode() != 200) {
      throw new IllegalStateException(path + ": " + r.statusCode() + " " + r.body());
    }
    return new JsonObject(r.body());
  }

  private static void put(RunningAppliance bulwark, String path, JsonObject body) throws Exception {
    HttpResponse<String> r = bulwark.send("PUT", bulwark.baseUrl() + path, body.encode());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(path + ": " + r.statusCode() + " " + r.body());
    }
  }

  private interface Check {
    boolean ok() throws Exception;
  }

  private static void waitFor(Check check, int seconds, String what) throws Exception {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (check.ok()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("timed out waiting for " + what);
  }

  private static double pct(List<Double> values, int p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Double::compare);
    int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
  }
}
