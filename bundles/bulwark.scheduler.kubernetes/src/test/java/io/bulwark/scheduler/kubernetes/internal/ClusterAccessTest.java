package io.bulwark.scheduler.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.scheduler.SchedulerException;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the connector reaches and signs in to the API server, against fabric8's mock API server (see
 * {@link MockApiServer}; no real one can run on the build machines) and against local sockets that
 * refuse or never answer: the bearer token read from its file at every request and kept out of
 * messages, a kubeconfig's server and user, the API server trusted only through the configured CA,
 * and a server that is down or hangs failing within the timeout with a message that says so.
 */
class ClusterAccessTest {
  @TempDir Path dir;

  @Test
  void theTokenIsReadFromItsFileAtEveryRequestAndNeverShownInAMessage() throws Exception {
    try (MockApiServer api = new MockApiServer()) {
      api.client().resource(readyNode("gpu-a01")).create();
      Path token = Files.writeString(dir.resolve("token"), "first-token-3f9a\n");
      KubernetesConnector connector = new KubernetesConnector(options(api.url(), token, null));
      try {
        connector.node("gpu-a01");
        assertThat(lastRequest(api).getHeader("Authorization"))
            .isEqualTo("Bearer first-token-3f9a");

        Files.writeString(token, "rotated-token-77c1");
        connector.node("gpu-a01");
        assertThat(lastRequest(api).getHeader("Authorization"))
            .isEqualTo("Bearer rotated-token-77c1");

        api.server()
            .expect()
            .get()
            .withPath("/api/v1/nodes/gpu-a02")
            .andReturn(
                401,
                new StatusBuilder()
                    .withCode(401)
                    .withReason("Unauthorized")
                    .withMessage("Unauthorized")
                    .build())
            .always();
        assertThatThrownBy(() -> connector.node("gpu-a02"))
            .isInstanceOf(SchedulerException.class)
            .hasMessageContaining("401")
            .hasMessageContaining(token.toString())
            .hasMessageNotContaining("rotated-token-77c1");
      } finally {
        connector.close();
      }
    }
  }

  @Test
  void anUnreadableTokenFileIsNamedInTheFailure() throws Exception {
    try (MockApiServer api = new MockApiServer()) {
      Path token = Files.writeString(dir.resolve("token"), "t");
      KubernetesConnector connector = new KubernetesConnector(options(api.url(), token, null));
      try {
        Files.delete(token);
        assertThatThrownBy(() -> connector.nodes())
            .isInstanceOf(SchedulerException.class)
            .hasMessageContaining("cannot read the token file " + token);
      } finally {
        connector.close();
      }
    }
  }

  @Test
  void aKubeconfigNamesTheServerAndTheUser() throws Exception {
    try (MockApiServer api = new MockApiServer()) {
      api.client().resource(readyNode("gpu-k01")).create();
      Path kubeconfig =
          Files.writeString(
              dir.resolve("kubeconfig"),
              """
              apiVersion: v1
              kind: Config
              clusters:
              - name: training
                cluster:
                  server: %s
              users:
              - name: bulwark
                user:
                  token: kubeconfig-token-51e0
              contexts:
              - name: bulwark@training
                context:
                  cluster: training
                  user: bulwark
              current-context: bulwark@training
              """
                  .formatted(api.url()));
      ClusterOptions options =
          new ClusterOptions(
              "training",
              "",
              Optional.of(kubeconfig),
              Optional.empty(),
              Optional.empty(),
              "node.kubernetes.io/pool",
              Duration.ofSeconds(5));
      KubernetesConnector connector = new KubernetesConnector(options);
      try {
        assertThat(connector.node("gpu-k01")).isPresent();
        assertThat(lastRequest(api).getHeader("Authorization"))
            .isEqualTo("Bearer kubeconfig-token-51e0");
      } finally {
        connector.close();
      }
    }
  }

  @Test
  void theApiServerIsTrustedThroughTheConfiguredCaAndNoOther() throws Exception {
    try (MockApiServer api = new MockApiServer(true)) {
      api.client().resource(readyNode("gpu-t01")).create();
      KubernetesConnector trusting =
          new KubernetesConnector(options(api.url(), null, api.certificate()));
      try {
        assertThat(trusting.node("gpu-t01")).isPresent();
      } finally {
        trusting.close();
      }

      try (MockApiServer other = new MockApiServer(true)) {
        KubernetesConnector wrongCa =
            new KubernetesConnector(options(api.url(), null, other.certificate()));
        try {
          assertThatThrownBy(() -> wrongCa.node("gpu-t01"))
              .isInstanceOf(SchedulerException.class)
              .hasMessageContaining("TLS handshake")
              .hasMessageContaining("caCertFile");
        } finally {
          wrongCa.close();
        }
      }
    }
  }

  @Test
  void anApiServerThatNeverAnswersFailsWithinTheTimeout() throws Exception {
    // Accepts connections (the kernel's backlog) but never reads or answers.
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      String url = "http://127.0.0.1:" + silent.getLocalPort() + "/";
      KubernetesConnector connector =
          new KubernetesConnector(KubernetesConnectorTest.options(url, Duration.ofSeconds(1)));
      try {
        long start = System.nanoTime();
        assertThatThrownBy(() -> connector.drain("gpu-h01", "xid-79"))
            .isInstanceOf(SchedulerException.class)
            .hasMessageContaining("Kubernetes cluster test (" + url + ")")
            .hasMessageContaining("gpu-h01")
            .hasMessageContaining("did not answer within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
      } finally {
        connector.close();
      }
    }
  }

  @Test
  void anApiServerThatIsDownFailsWithAMessageThatSaysSo() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port + "/";
    KubernetesConnector connector =
        new KubernetesConnector(KubernetesConnectorTest.options(url, Duration.ofSeconds(2)));
    try {
      assertThatThrownBy(() -> connector.nodes())
          .isInstanceOf(SchedulerException.class)
          .hasMessageContaining("cannot list nodes")
          .hasMessageContaining("cannot connect to " + url)
          .hasMessageContaining("check masterUrl");
    } finally {
      connector.close();
    }
  }

  private static ClusterOptions options(String url, Path token, Path ca) {
    return new ClusterOptions(
        "test",
        url,
        Optional.empty(),
        Optional.ofNullable(token),
        Optional.ofNullable(ca),
        "node.kubernetes.io/pool",
        Duration.ofSeconds(5));
  }

  private static Node readyNode(String name) {
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewStatus()
        .addNewCondition()
        .withType("Ready")
        .withStatus("True")
        .endCondition()
        .endStatus()
        .build();
  }

  private static RecordedRequest lastRequest(MockApiServer api) throws InterruptedException {
    RecordedRequest last = null;
    RecordedRequest next;
    while ((next = api.server().takeRequest(100, TimeUnit.MILLISECONDS)) != null) {
      last = next;
    }
    return last;
  }
}
