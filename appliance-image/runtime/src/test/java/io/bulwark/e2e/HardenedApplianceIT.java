package io.bulwark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The appliance role in hardened mode on a machine without a TPM: it must refuse to start, saying
 * that the secret store needs a TPM, instead of running without sealed secrets.
 */
class HardenedApplianceIT {

  @Test
  void withoutATpmTheHardenedApplianceRefusesToStartAndSaysWhy() throws Exception {
    Path work = RunningAppliance.workDir("hardened-no-tpm");
    Path targets = Files.writeString(work.resolve("targets.json"), "[]");
    ProcessBuilder pb =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                System.getProperty("bulwark.appliance.jar"))
            .directory(work.toFile())
            .redirectErrorStream(true)
            .redirectOutput(work.resolve("console.log").toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("BULWARK_"));
    pb.environment().put("BULWARK_DATA_DIR", work.resolve("data").toString());
    pb.environment().put("BULWARK_FILE_SD", targets.toString());
    pb.environment().put("BULWARK_HTTPS_PORT", Integer.toString(RunningAppliance.freePort()));
    // Points at a TPM that is not there: no device, nothing listening.
    pb.environment()
        .put("BULWARK_TPM_TCTI", "swtpm:host=127.0.0.1,port=" + RunningAppliance.freePort());
    Process p = pb.start();
    try {
      assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the appliance exits").isTrue();
    } finally {
      p.destroyForcibly();
    }
    String console = Files.readString(work.resolve("console.log"), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).isEqualTo(78);
    assertThat(console)
        .contains("Bulwark cannot start")
        .contains("io.bulwark.api.security.SecretStore")
        .contains("needs a TPM")
        .contains("Cannot reach the TPM");
    assertThat(work.resolve("data/secrets/data-key.development")).doesNotExist();
  }
}
