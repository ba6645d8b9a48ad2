package io.bulwark.scheduler.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.annotation.Annotation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configuration checks an operator meets when the connector does not start. */
class ClusterOptionsTest {
  @TempDir Path dir;

  @Test
  void aMasterUrlAndATokenFileAreEnough() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "t");

    ClusterOptions options =
        ClusterOptions.from(config("https://10.0.0.1:6443", "", token.toString(), "", 7));

    assertThat(options.name()).isEqualTo("training");
    assertThat(options.tokenFile()).contains(token);
    assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(7));
    assertThat(options.poolLabel()).isEqualTo("node.kubernetes.io/pool");
    assertThat(options.describe()).isEqualTo("Kubernetes cluster training (https://10.0.0.1:6443)");
    assertThat(options.cleartext()).isFalse();
  }

  @Test
  void withoutAServerTheMessageSaysWhatToSet() {
    assertThatThrownBy(() -> ClusterOptions.from(config("", "", "", "", 15)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Kubernetes cluster training")
        .hasMessageContaining("set masterUrl")
        .hasMessageContaining("or kubeconfig");
  }

  @Test
  void aFileThatCannotBeReadIsNamed() {
    Path missing = dir.resolve("no-such-token");

    assertThatThrownBy(
            () ->
                ClusterOptions.from(
                    config("https://10.0.0.1:6443", "", missing.toString(), "", 15)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tokenFile " + missing)
        .hasMessageContaining("not a readable file");
  }

  @Test
  void aUrlThatIsNotHttpAndATimeoutBelowOneAreRefused() {
    assertThatThrownBy(() -> ClusterOptions.from(config("10.0.0.1:6443", "", "", "", 15)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not an http(s) URL");
    assertThatThrownBy(() -> ClusterOptions.from(config("https://10.0.0.1:6443", "", "", "", 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeoutSeconds is 0");
  }

  @Test
  void anUnreadableCaFileStopsTheConnectorWithItsName() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.crt"), "not a certificate");

    assertThatThrownBy(
            () ->
                new KubernetesConnector(config("https://10.0.0.1:6443", "", "", ca.toString(), 15)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(ca.toString())
        .hasMessageContaining("caCertFile");
  }

  private static KubernetesConfig config(
      String masterUrl, String kubeconfig, String tokenFile, String caCertFile, int timeout) {
    return new KubernetesConfig() {
      @Override
      public Class<? extends Annotation> annotationType() {
        return KubernetesConfig.class;
      }

      @Override
      public String name() {
        return "training";
      }

      @Override
      public String masterUrl() {
        return masterUrl;
      }

      @Override
      public String kubeconfig() {
        return kubeconfig;
      }

      @Override
      public String tokenFile() {
        return tokenFile;
      }

      @Override
      public String caCertFile() {
        return caCertFile;
      }

      @Override
      public String poolLabel() {
        return "node.kubernetes.io/pool";
      }

      @Override
      public int timeoutSeconds() {
        return timeout;
      }
    };
  }
}
