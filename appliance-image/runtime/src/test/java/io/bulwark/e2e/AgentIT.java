package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The exported GPU node agent (agent.jar) against a stand-in NVML library: no GPU exists where this
 * test runs, so it builds bulwark.agent's fake_nvml.c (which follows the NVML ABI) with gcc, starts
 * the agent with it on jna.library.path and on a free loopback port given through
 * BULWARK_AGENT_PORT (the shipped 9400 of bulwark.config.agent may be taken by a simulator or
 * another agent), and scrapes that endpoint.
 */
class AgentIT {
  private static final Path SOURCE = Path.of("../../bundles/bulwark.agent/src/test/c/fake_nvml.c");

  @Test
  void theAgentServesTheGpusOfTheNodeAsADcgmExporterPage() throws Exception {
    int port = freePort();
    Path agentJar = Path.of(System.getProperty("bulwark.demo.jar")).resolveSibling("agent.jar");
    Path work = Path.of(System.getProperty("bulwark.e2e.dir")).resolve("agent");
    Path lib = work.resolve("lib");
    Files.createDirectories(lib);
    compile(SOURCE, lib.resolve("libnvidia-ml.so.1"));
    Files.write(
        lib.resolve("fake-nvml.conf"),
        List.of(
            "gpus 1",
            "gpu 0 uuid GPU-a1b2c3d4-0000-4000-8000-000000000000",
            "gpu 0 name NVIDIA H100 80GB HBM3",
            "gpu 0 bus 00000000:18:00.0",
            "gpu 0 temp 47",
            "gpu 0 power_mw 250000",
            "xid 0 79"));

    ProcessBuilder start =
        new ProcessBuilder(
                "java",
                "-Djna.library.path=" + lib.toAbsolutePath(),
                "-jar",
                agentJar.toAbsolutePath().toString())
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve("agent.log").toFile()));
    start.environment().put("BULWARK_AGENT_PORT", Integer.toString(port));
    Process agent = start.start();
    try {
      String page = scrapeUntil(port, "DCGM_FI_DEV_XID_ERRORS{", "} 79");

      assertThat(page)
          .contains("bulwark_nvml_up{Hostname=")
          .contains(
              "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-a1b2c3d4-0000-4000-8000-000000000000\","
                  + "pci_bus_id=\"00000000:18:00.0\",device=\"nvidia0\","
                  + "modelName=\"NVIDIA H100 80GB HBM3\"")
          .contains("} 47\n")
          .contains("} 250.000000\n");
    } finally {
      agent.destroy();
      if (!agent.waitFor(30, TimeUnit.SECONDS)) {
        agent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** Returns a loopback port that was free a moment ago (the agent binds it right after). */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  static void compile(Path source, Path library) throws Exception {
    Process gcc =
        new ProcessBuilder(
                "gcc",
                "-shared",
                "-fPIC",
                "-O1",
                "-o",
                library.toString(),
                source.toString(),
                "-lpthread")
            .redirectErrorStream(true)
            .start();
    String output = new String(gcc.getInputStream().readAllBytes());
    assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(gcc.exitValue()).as("gcc: " + output).isZero();
  }

  /** Scrapes until the page has a line with both parts, at most 60 s. */
  private static String scrapeUntil(int port, String start, String end) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
            .timeout(Duration.ofSeconds(5))
            .build();
    String last = "";
    for (int i = 0; i < 120; i++) {
      try {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        last = response.body();
        if (response.statusCode() == 200
            && last.lines().anyMatch(l -> l.startsWith(start) && l.endsWith(end))) {
          return last;
        }
      } catch (IOException notYetListening) {
        last = notYetListening.toString();
      }
      Thread.sleep(500);
    }
    throw new AssertionError("The agent did not serve the expected page within 60 s: " + last);
  }
}
