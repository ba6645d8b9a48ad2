package io.bulwark.scheduler.slurm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.testing.TypedConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlurmOptionsTest {
  @Test
  void defaultsToTheSystemsSlurmClientInUsrBinWithTenSeconds() {
    SlurmOptions options = SlurmOptions.of(TypedConfig.defaults(SlurmConfig.class));

    assertThat(options.name()).isEqualTo("slurm");
    assertThat(options.slurmConf()).isEmpty();
    assertThat(options.binDir()).isEqualTo(Path.of("/usr/bin"));
    assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void takesTheConfiguredValuesAsConfigAdminDeliversThem() {
    SlurmOptions options =
        SlurmOptions.of(
            TypedConfig.of(
                SlurmConfig.class,
                Map.of(
                    "name", " slurm-east ",
                    "slurmConf", "/etc/slurm-east/slurm.conf",
                    "binDir", "/opt/slurm/bin",
                    "timeoutSeconds", "3")));

    assertThat(options.name()).isEqualTo("slurm-east");
    assertThat(options.slurmConf()).contains(Path.of("/etc/slurm-east/slurm.conf"));
    assertThat(options.binDir()).isEqualTo(Path.of("/opt/slurm/bin"));
    assertThat(options.timeout()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void refusesRelativePathsAndBoundsTheTimeout() {
    assertThatThrownBy(
            () ->
                SlurmOptions.of(
                    TypedConfig.of(SlurmConfig.class, Map.of("slurmConf", "slurm.conf"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("slurmConf \"slurm.conf\" is not an absolute path");
    assertThatThrownBy(
            () -> SlurmOptions.of(TypedConfig.of(SlurmConfig.class, Map.of("binDir", "bin"))))
        .hasMessageContaining("binDir \"bin\" is not an absolute folder");
    assertThat(
            SlurmOptions.of(TypedConfig.of(SlurmConfig.class, Map.of("timeoutSeconds", 0)))
                .timeout())
        .isEqualTo(Duration.ofSeconds(1));
  }
}
