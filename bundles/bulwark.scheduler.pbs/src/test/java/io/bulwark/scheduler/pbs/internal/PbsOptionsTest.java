package io.bulwark.scheduler.pbs.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.testing.TypedConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The connector's configuration as Config Admin delivers it. */
class PbsOptionsTest {
  @Test
  void defaultsToOpenPbsInOptPbs() {
    PbsOptions options = PbsOptions.of(TypedConfig.of(PbsConfig.class, Map.of()));

    assertThat(options.name()).isEqualTo("pbs");
    assertThat(options.flavour()).isEqualTo(PbsFlavour.OPENPBS);
    assertThat(options.pbsnodes()).isEqualTo(Path.of("/opt/pbs/bin/pbsnodes"));
    assertThat(options.server()).isEmpty();
    assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void readsTorqueWithItsServer() {
    PbsOptions options =
        PbsOptions.of(
            TypedConfig.of(
                PbsConfig.class,
                Map.of(
                    "name", "pbs-east",
                    "flavour", "Torque",
                    "binDir", "/usr/local/bin",
                    "server", "torque-head:15001",
                    "timeoutSeconds", "30")));

    assertThat(options.name()).isEqualTo("pbs-east");
    assertThat(options.flavour()).isEqualTo(PbsFlavour.TORQUE);
    assertThat(options.pbsnodes()).isEqualTo(Path.of("/usr/local/bin/pbsnodes"));
    assertThat(options.server()).isEqualTo(Optional.of("torque-head:15001"));
    assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void refusesWhatCannotBeRun() {
    assertThatThrownBy(
            () -> PbsOptions.of(TypedConfig.of(PbsConfig.class, Map.of("flavour", "slurm"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "flavour \"slurm\" is not a PBS this connector knows; set it to openpbs or torque");
    assertThatThrownBy(
            () -> PbsOptions.of(TypedConfig.of(PbsConfig.class, Map.of("binDir", "bin"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("binDir \"bin\" is not an absolute folder");
    assertThatThrownBy(() -> PbsOptions.of(TypedConfig.of(PbsConfig.class, Map.of("server", "-a"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server \"-a\" is not a PBS server name");
  }

  @Test
  void boundsTheTimeout() {
    assertThat(
            PbsOptions.of(TypedConfig.of(PbsConfig.class, Map.of("timeoutSeconds", 0))).timeout())
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(
            PbsOptions.of(TypedConfig.of(PbsConfig.class, Map.of("timeoutSeconds", 9999)))
                .timeout())
        .isEqualTo(Duration.ofSeconds(300));
  }
}
