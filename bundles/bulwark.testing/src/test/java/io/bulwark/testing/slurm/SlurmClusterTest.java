package io.bulwark.testing.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlurmClusterTest {
  @TempDir Path dir;

  @Test
  void startsEveryNodeIdleAsItsOwnSlurmdReachableByTheClientCommandsThroughSlurmConf()
      throws Exception {
    try (SlurmCluster cluster =
        SlurmCluster.builder(dir)
            .nodes("gpu01", "gpu02", "cpu01")
            .partition("gpu", List.of("gpu01", "gpu02"))
            .partition("debug", List.of("cpu01"))
            .start()) {
      assertThat(cluster.startedIn()).isLessThan(Duration.ofSeconds(15));
      assertThat(cluster.environment())
          .containsEntry("SLURM_CONF", dir.resolve("slurm.conf").toString());

      String sinfo = client(cluster, "sinfo", "--noheader", "--Node", "--format=%N %P %T").stdout();
      assertThat(sinfo.lines().map(String::strip))
          .containsExactlyInAnyOrder("cpu01 debug idle", "gpu01 gpu* idle", "gpu02 gpu* idle");
      assertThat(client(cluster, "scontrol", "show", "config").stdout())
          .containsPattern("MULTIPLE_SLURMD\\s*=\\s*Yes")
          .contains("AuthInfo")
          .contains("ReturnToService         = 2");
      JsonArray listed = new JsonObject(cluster.run("sinfo", "--json")).getJsonArray("nodes");
      assertThat(listed).hasSize(3);
      for (Object entry : listed) {
        JsonObject node = (JsonObject) entry;
        assertThat(node.getString("state")).as(node.encode()).isEqualTo("idle");
        assertThat(node.getJsonArray("state_flags")).as(node.encode()).isEmpty();
      }
      List<Integer> ports = new ArrayList<>();
      for (String node : cluster.nodes()) {
        String shown = cluster.scontrol("show", "node", node);
        assertThat(shown).contains("NodeName=" + node).contains("NodeAddr=127.0.0.1");
        Matcher port = Pattern.compile("Port=(\\d+)").matcher(shown);
        assertThat(port.find()).as(shown).isTrue();
        ports.add(Integer.parseInt(port.group(1)));
        assertThat(listening(ports.get(ports.size() - 1))).isTrue();
      }
      assertThat(ports).doesNotHaveDuplicates();
      assertThat(cluster.partitions().keySet()).containsExactly("gpu", "debug");
    }
  }

  @Test
  void runsASubmittedJobOnTheNodeAskedForUntilItIsCancelled() {
    try (SlurmCluster cluster = SlurmCluster.start(dir, List.of("n1", "n2", "n3"))) {
      String job = cluster.submit("n2", Duration.ofMinutes(5));

      assertThat(cluster.run("squeue", "--noheader", "--jobs=" + job, "--format=%T %N").strip())
          .isEqualTo("RUNNING n2");
      awaitState(cluster, "n2", "mixed");
      assertThat(state(cluster, "n1")).isEqualTo("idle");

      cluster.cancel(job);
      awaitState(cluster, "n2", "idle");
      assertThat(cluster.run("squeue", "--noheader", "--format=%A")).isBlank();
    }
  }

  @Test
  void runsOneJobOnSeveralNodes() {
    try (SlurmCluster cluster = SlurmCluster.start(dir, List.of("a1", "a2", "b1"))) {
      String job = cluster.submit(List.of("a2", "b1"), Duration.ofMinutes(5));

      assertThat(cluster.run("squeue", "--noheader", "--jobs=" + job, "--format=%T %D %N").strip())
          .isEqualTo("RUNNING 2 a2,b1");
      assertThat(state(cluster, "a1")).isEqualTo("idle");
    }
  }

  @Test
  void closeLeavesNoDaemonNorJobProcessBehind() throws Exception {
    SlurmCluster cluster = SlurmCluster.start(dir, List.of("n1", "n2"));
    cluster.submit("n1", Duration.ofMinutes(10));
    cluster.submit(List.of("n1", "n2"), Duration.ofMinutes(10));
    Path mungeSocket = Path.of(config(cluster, "AuthInfo=socket=(\\S+)"));
    int controllerPort = Integer.parseInt(config(cluster, "SlurmctldPort=(\\d+)"));
    assertThat(pgrep(dir)).isNotEmpty();
    assertThat(Files.exists(mungeSocket)).isTrue();

    cluster.close();

    assertThat(pgrep(dir)).as("processes whose command line names " + dir).isEmpty();
    assertThat(pgrep(mungeSocket.getParent())).as("munged").isEmpty();
    assertThat(SlurmProcesses.workingIn(dir)).as("processes working in " + dir).isEmpty();
    assertThat(Files.exists(mungeSocket.getParent())).isFalse();
    assertThat(listening(controllerPort)).isFalse();
    cluster.close();
  }

  @Test
  void stopControllerLeavesTheClientCommandsWithoutAController() {
    try (SlurmCluster cluster = SlurmCluster.start(dir, List.of("n1"))) {
      cluster.stopController();

      assertThatThrownBy(() -> cluster.scontrol("ping"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("DOWN");
    }
  }

  @Test
  void refusesANameThatIsNotAPlainNodeName() {
    assertThatThrownBy(() -> SlurmCluster.start(dir, List.of("gpu[01-02]")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gpu[01-02]");
    assertThatThrownBy(
            () -> SlurmCluster.builder(dir).nodes("n1").partition("p", List.of("n2")).start())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("n2");
  }

  @Test
  void namesThePackageToInstallWhenAProgramIsMissing() throws IOException {
    Path empty = Files.createDirectories(dir.resolve("empty-bin"));

    assertThatThrownBy(
            () ->
                SlurmCluster.builder(dir.resolve("c"))
                    .nodes("n1")
                    .searchPath(List.of(empty))
                    .start())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("munged is not installed")
        .hasMessageContaining("Debian package munge")
        .hasMessageContaining("apt-get install");
  }

  /**
   * The node's state as sinfo words it, picked from the whole listing: filtered with {@code
   * --nodes}, sinfo 22.05 folds a mixed node into "allocated".
   */
  private static String state(SlurmCluster cluster, String node) {
    return cluster
        .run("sinfo", "--noheader", "--Node", "--format=%N %T")
        .lines()
        .map(String::strip)
        .filter(l -> l.startsWith(node + " "))
        .map(l -> l.substring(node.length() + 1))
        .findFirst()
        .orElse("(not listed)");
  }

  private static void awaitState(SlurmCluster cluster, String node, String expected) {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      last = state(cluster, node);
      if (last.equals(expected)) {
        return;
      }
      SlurmProcesses.pause(50);
    }
    assertThat(last).as("state of " + node).isEqualTo(expected);
  }

  private static String config(SlurmCluster cluster, String regex) throws IOException {
    Matcher m = Pattern.compile(regex).matcher(Files.readString(cluster.slurmConf()));
    assertThat(m.find()).as(regex).isTrue();
    return m.group(1);
  }

  /** Runs a client command the way any other program would: with the cluster's environment. */
  private static SlurmProcesses.Result client(SlurmCluster cluster, String tool, String... args)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(cluster.program(tool).toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("SLURM_CONF");
    builder.environment().putAll(cluster.environment());
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as(err).isZero();
    return new SlurmProcesses.Result(command, 0, out, err);
  }

  private static List<String> pgrep(Path dir) throws Exception {
    Process process = new ProcessBuilder("pgrep", "-a", "-f", dir.toString()).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor();
    try (Stream<String> lines = out.lines()) {
      return lines.filter(l -> !l.isBlank()).toList();
    }
  }

  private static boolean listening(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
