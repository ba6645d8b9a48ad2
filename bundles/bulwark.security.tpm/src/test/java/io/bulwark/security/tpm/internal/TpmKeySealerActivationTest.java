package io.bulwark.security.tpm.internal;

import static io.bulwark.security.tpm.internal.TpmKeySealerTest.randomKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.lang.annotation.Annotation;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What activation reports when the TPM, its libraries or the configuration are not usable. */
class TpmKeySealerActivationTest {
  @TempDir Path state;

  @Test
  void givenNoTpmListening_whenActivated_thenTheMessageNamesTheTctiAndWhatToStart()
      throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String tcti = "swtpm:host=127.0.0.1,port=" + port;

    assertThatThrownBy(() -> new TpmKeySealer(config(tcti, "")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot reach the TPM through TCTI " + tcti)
        .hasMessageContaining("the TPM simulator is running");
  }

  @Test
  void givenTheDefaultDeviceIsAbsent_whenActivatedWithDefaults_thenTheMessageNamesTheDevice() {
    assumeFalse(Files.exists(Path.of("/dev/tpmrm0")), "this machine has a TPM at /dev/tpmrm0");

    assertThatThrownBy(() -> new TpmKeySealer(config("device:/dev/tpmrm0", "")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TCTI device:/dev/tpmrm0")
        .hasMessageContaining("/dev/tpmrm0 is readable by Bulwark");
  }

  @Test
  void givenAnUnknownTctiModule_whenActivated_thenTheMessageNamesItsLibrary() {
    assertThatThrownBy(() -> new TpmKeySealer(config("nosuchtcti:whatever", "")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("libtss2-tcti-nosuchtcti.so.0 must be installed");
  }

  @Test
  void aMissingLibraryIsNamedWithThePackageToInstall() {
    assertThatThrownBy(
            () ->
                Tss2Libraries.bind(
                    "libtss2-absent.so.0",
                    ResponseCodeLibrary.class,
                    "response codes",
                    "libtss2-absent0"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Cannot load libtss2-absent.so.0 (tpm2-tss response codes)")
        .hasMessageContaining("apt install libtss2-absent0");
  }

  @Test
  void givenATpmThatWasNotStarted_whenActivated_thenItIsStartedAndSeals() throws Exception {
    try (Swtpm fresh = Swtpm.start(state, false)) {
      TpmKeySealer sealer = new TpmKeySealer(config(fresh.tcti(), "7"));
      byte[] key = randomKey(32);

      assertThat(sealer.unseal(sealer.seal(key))).isEqualTo(key);
    }
  }

  @Test
  void invalidSettingsAreRefusedBeforeTheTpmIsTouched() {
    assertThatThrownBy(() -> new TpmKeySealer(config("device:/dev/tpmrm0", "0,24")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pcrs must list PCR indices 0 to 23")
        .hasMessageContaining("\"24\"");
    assertThatThrownBy(() -> new TpmKeySealer(config("device:/dev/tpmrm0", "7,boot")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"boot\"");
    assertThatThrownBy(() -> new TpmKeySealer(config(" ", "")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tcti must name the TPM");
  }

  @Test
  void theConfigurationDefaultsAreTheKernelResourceManagerAndNoPcrs() throws Exception {
    String tcti = (String) TpmKeySealerConfig.class.getMethod("tcti").getDefaultValue();
    String pcrs = (String) TpmKeySealerConfig.class.getMethod("pcrs").getDefaultValue();

    assertThat(tcti).isEqualTo("device:/dev/tpmrm0");
    assertThat(SealerOptions.from(config(tcti, pcrs)).pcrs().isEmpty()).isTrue();
  }

  static TpmKeySealerConfig config(String tcti, String pcrs) {
    return new TpmKeySealerConfig() {
      @Override
      public String tcti() {
        return tcti;
      }

      @Override
      public String pcrs() {
        return pcrs;
      }

      @Override
      public Class<? extends Annotation> annotationType() {
        return TpmKeySealerConfig.class;
      }
    };
  }
}
