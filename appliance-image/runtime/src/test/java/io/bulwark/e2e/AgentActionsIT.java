package io.bulwark.e2e;

import static io.bulwark.e2e.Runs.await;
import static io.bulwark.e2e.Runs.get;
import static io.bulwark.e2e.Runs.step;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The node agent's action channel end to end: an admin issues a one-time enrolment token; the
 * exported agent (agent.jar) enrols with it over the admin plane's TLS, pinned to the appliance's
 * certificate fingerprint, and gets a certificate of the agent authority; then an XID 79 on that
 * node becomes a run (no scheduler drains the node, so an operator approves it knowing that its
 * jobs are killed) whose gpu-reset and dcgm-diag steps go through the agent over mutual TLS, every
 * request and answer signed and audited on both sides. An admin then revokes the agent's
 * certificate (that a revoked agent is never called is shown in bulwark.agents' tests). No GPU
 * exists where this runs: the agent reads the stand-in NVML library (fake_nvml.c) and runs scripted
 * nvidia-smi and dcgmi that record their arguments and answer as the real tools do.
 */
class AgentActionsIT {
  private static final String NODE = "gpu-node-002";
  private static final Path NVML = Path.of("../../bundles/bulwark.agent/src/test/c/fake_nvml.c");

  @Test
  void anEnrolledAgentResetsAndDiagnosesTheGpuOfARunAndARevokedOneIsNotCalled() throws Exception {
    Path work = RunningAppliance.workDir("agent-actions");
    Map<String, String> env = new HashMap<>();
    env.put("BULWARK_SIM_NODES", "8");
    env.put("BULWARK_SIM_SCENARIO", "none");
    env.put("BULWARK_REMEDIATION_MODE", "automatic");
    env.put("BULWARK_REMEDIATION_SOAK_SECONDS", "5");
    try (RunningAppliance bulwark = RunningAppliance.demo(work, env)) {
      bulwark.awaitUp(Duration.ofSeconds(90));
      bulwark.login();
      await(bulwark, "/api/v1/machines/" + NODE, m -> "deployed".equals(m.getString("state")), 90);

      HttpResponse<String> issued =
          bulwark.send(
              "POST",
              bulwark.baseUrl() + "/api/v1/agents/enrolment-tokens",
              new JsonObject().put("node", NODE).put("ttlMinutes", 10).encode());
      assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
      String token = new JsonObject(issued.body()).getString("token");

      Path agentDir = work.resolve("agent");
      Path tools = agentDir.resolve("tools");
      Files.createDirectories(tools);
      Path calls = tools.resolve("calls.log");
      script(
          tools.resolve("nvidia-smi"),
          "echo \"nvidia-smi $*\" >> "
              + calls
              + "\necho 'GPU 00000000:18:00.0 was successfully reset.'\n"
              + "echo 'All done.'\nexit 0");
      script(
          tools.resolve("dcgmi"),
          "echo \"dcgmi $*\" >> "
              + calls
              + "\ncat <<'JSON'\n"
              + "{\"DCGM GPU Diagnostic\":{\"test_categories\":[{\"category\":\"Deployment\",\"tests\":"
              + "[{\"name\":\"Blacklist\",\"results\":[{\"status\":\"Pass\"}]}]},{\"category\":"
              + "\"Hardware\",\"tests\":[{\"name\":\"GPU Memory\",\"results\":[{\"gpu_ids\":\"0\","
              + "\"status\":\"Pass\"}]}]}],\"version\":\"3.3.5\"}}\nJSON\nexit 0");
      Path lib = agentDir.resolve("lib");
      Files.createDirectories(lib);
      AgentIT.compile(NVML, lib.resolve("libnvidia-ml.so.1"));
      Files.write(
          lib.resolve("fake-nvml.conf"), List.of("gpus 2", "gpu 0 temp 45", "gpu 1 temp 46"));

      int actionPort = RunningAppliance.freePort();
      String fingerprint = PinnedCertificate.printedFingerprint(bulwark.log);
      ProcessBuilder start =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Djna.library.path=" + lib.toAbsolutePath(),
                  "-jar",
                  Path.of(System.getProperty("bulwark.demo.jar"))
                      .resolveSibling("agent.jar")
                      .toString())
              .directory(agentDir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(
                  ProcessBuilder.Redirect.appendTo(agentDir.resolve("agent.log").toFile()));
      start.environment().keySet().removeIf(k -> k.startsWith("BULWARK_"));
      start.environment().put("BULWARK_AGENT_PORT", Integer.toString(RunningAppliance.freePort()));
      start.environment().put("BULWARK_AGENT_ACTION_PORT", Integer.toString(actionPort));
      start.environment().put("BULWARK_AGENT_ADVERTISE_ADDRESS", "127.0.0.1");
      start.environment().put("BULWARK_AGENT_HOSTNAME", NODE);
      start.environment().put("BULWARK_AGENT_APPLIANCE_URL", bulwark.baseUrl());
      start.environment().put("BULWARK_AGENT_APPLIANCE_FINGERPRINT", fingerprint);
      start.environment().put("BULWARK_AGENT_ENROLMENT_TOKEN", token);
      start.environment().put("BULWARK_AGENT_NVIDIA_SMI", tools.resolve("nvidia-smi").toString());
      start.environment().put("BULWARK_AGENT_DCGMI", tools.resolve("dcgmi").toString());
      Process agent = start.start();
      try {
        JsonObject agents =
            await(bulwark, "/api/v1/agents", a -> a.getJsonArray("agents").size() == 1, 90);
        JsonObject record = agents.getJsonArray("agents").getJsonObject(0);
        assertThat(record.getString("node")).isEqualTo(NODE);
        assertThat(record.getString("endpoint")).isEqualTo("127.0.0.1:" + actionPort);
        assertThat(Files.readString(agentDir.resolve("agent.log"))).doesNotContain(token);

        Runs.injectXid79(bulwark, NODE, 1);
        // No scheduler drains the node here: the GPU reset waits for a person who confirms that
        // the node's jobs may be killed, whatever the policy's mode.
        JsonObject asking =
            await(
                bulwark,
                "/api/v1/remediation/runs?node=" + NODE,
                r ->
                    r.getJsonArray("runs", new JsonArray()).stream()
                        .map(JsonObject.class::cast)
                        .anyMatch(x -> "awaiting-approval".equals(x.getString("state"))),
                240);
        JsonObject waiting = asking.getJsonArray("runs").getJsonObject(0);
        assertThat(waiting.getBoolean("approvalKillsJobs")).as(waiting.encodePrettily()).isTrue();
        HttpResponse<String> approved =
            bulwark.send(
                "POST",
                bulwark.baseUrl()
                    + "/api/v1/remediation/runs/"
                    + waiting.getString("id")
                    + "/approve",
                new JsonObject()
                    .put("step", waiting.getInteger("current"))
                    .put("jobsMayBeKilled", true)
                    .encode());
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
        JsonObject done =
            await(
                bulwark,
                "/api/v1/remediation/runs?node=" + NODE,
                r ->
                    r.getJsonArray("runs", new JsonArray()).stream()
                        .map(JsonObject.class::cast)
                        .anyMatch(
                            x ->
                                !"running".equals(x.getString("state"))
                                    && !"queued".equals(x.getString("state"))
                                    && !"awaiting-approval".equals(x.getString("state"))),
                240);
        JsonObject run =
            get(
                bulwark,
                "/api/v1/remediation/runs/"
                    + done.getJsonArray("runs").getJsonObject(0).getString("id"));
        assertThat(run.getString("state")).as(run.encodePrettily()).isEqualTo("succeeded");
        assertThat(step(run, "gpu-reset").getString("status"))
            .as(run.encodePrettily())
            .isEqualTo("done");
        assertThat(step(run, "dcgm-diag").getString("status"))
            .as(run.encodePrettily())
            .isEqualTo("done");
        assertThat(Files.readAllLines(calls))
            .contains("nvidia-smi --gpu-reset -i 1")
            .anyMatch(l -> l.startsWith("dcgmi diag -r 2 -i 1"));
        String audit = bulwark.get("/api/v1/audit?action=agent.action-start&limit=20").body();
        assertThat(audit).contains(NODE, "requestSignature", "answerSignature");
        String agentAudit = Files.readString(agentDir.resolve("data/agent-audit.jsonl"));
        assertThat(agentAudit).contains("/v1/actions", "Bulwark appliance");

        HttpResponse<String> revoked =
            bulwark.send("POST", bulwark.baseUrl() + "/api/v1/agents/" + NODE + "/revoke", "{}");
        assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(200);
        assertThat(new JsonObject(revoked.body()).getString("revokedAt")).isNotNull();
        String revocations = bulwark.get("/api/v1/audit?action=agent.revoke&limit=5").body();
        assertThat(revocations).contains(NODE);
      } finally {
        agent.destroy();
        if (!agent.waitFor(30, TimeUnit.SECONDS)) {
          agent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      }
    }
  }

  private static void script(Path file, String body) throws Exception {
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
  }
}
