package io.bulwark.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Hashtable;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnvironmentSettingsTest {
  @TempDir Path dir;

  @Test
  void noVariablesMeansNoOverrides() {
    assertThat(EnvironmentSettings.from(Map.of("PATH", "/usr/bin")).all()).isEmpty();
  }

  @Test
  void dataDirMovesTheStoreAndTheDemoTargetsFile() {
    EnvironmentSettings s = EnvironmentSettings.from(Map.of("BULWARK_DATA_DIR", dir.toString()));
    assertThat(s.overridesFor("io.bulwark.store")).containsEntry("dataDir", dir.toString());
    assertThat(s.overridesFor("io.bulwark.sim"))
        .containsEntry("fileSd", dir.resolve("sim-targets.json").toString());
    assertThat(s.overridesFor("io.bulwark.telemetry"))
        .containsEntry("fileSd", dir.resolve("sim-targets.json").toString())
        .containsEntry("rollupFolder", dir.resolve("rollups").toString());
    assertThat(s.overridesFor("io.bulwark.security.secrets"))
        .containsEntry("folder", dir.resolve("secrets").toString());
    assertThat(s.overridesFor("io.bulwark.security.tls"))
        .containsEntry("keystore", dir.resolve("tls/admin.bcfks").toString());
    assertThat(s.overridesFor("io.bulwark.audit"))
        .containsEntry("folder", dir.resolve("audit").toString());
    assertThat(s.overridesFor("io.bulwark.updates"))
        .containsEntry("repository", dir.resolve("offline-repo").toString())
        .containsEntry("stateFolder", dir.resolve("updates").toString())
        .containsEntry("watchFolder", dir.resolve("usb").toString());
  }

  @Test
  void theUpdateStickMayBeMountedAnywhere() {
    EnvironmentSettings s =
        EnvironmentSettings.from(
            Map.of("BULWARK_DATA_DIR", dir.toString(), "BULWARK_UPDATES_WATCH", "/media/stick"));
    assertThat(s.overridesFor("io.bulwark.updates")).containsEntry("watchFolder", "/media/stick");
  }

  @Test
  void fileSdPointsTelemetryAtRealTargetsAndTurnsTheSimulatorOff() throws Exception {
    Path targets = Files.writeString(dir.resolve("targets.json"), "[]");
    EnvironmentSettings s =
        EnvironmentSettings.from(
            Map.of("BULWARK_DATA_DIR", dir.toString(), "BULWARK_FILE_SD", targets.toString()));
    assertThat(s.overridesFor("io.bulwark.telemetry")).containsEntry("fileSd", targets.toString());
    assertThat(s.overridesFor("io.bulwark.sim")).containsEntry("enabled", false);
  }

  @Test
  void theProvisioningPlaneIsOnlyConfiguredWhenItsAddressIsGiven() {
    assertThat(
            EnvironmentSettings.from(Map.of("BULWARK_DATA_DIR", dir.toString()))
                .overridesFor("io.bulwark.pxe"))
        .isEmpty();
    EnvironmentSettings s =
        EnvironmentSettings.from(
            Map.of(
                "BULWARK_DATA_DIR", dir.toString(),
                "BULWARK_PXE_ADDRESS", "10.40.0.1",
                "BULWARK_PXE_INTERFACE", "eno2",
                "BULWARK_PXE_SUBNET", "10.40.0.0/22",
                "BULWARK_PXE_RANGE", "10.40.0.100-10.40.1.250",
                "BULWARK_PXE_HTTP_PORT", "5248"));
    assertThat(s.overridesFor("io.bulwark.pxe"))
        .containsEntry("address", "10.40.0.1")
        .containsEntry("interfaceName", "eno2")
        .containsEntry("subnet", "10.40.0.0/22")
        .containsEntry("rangeStart", "10.40.0.100")
        .containsEntry("rangeEnd", "10.40.1.250")
        .containsEntry("httpPort", 5248)
        .containsEntry("bootRoot", dir.resolve("pxe/boot").toString())
        .containsEntry("tftpRoot", dir.resolve("pxe/tftp").toString());
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_PXE_SUBNET", "10.40.0.0/22")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("BULWARK_PXE_ADDRESS");
    assertThatThrownBy(
            () ->
                EnvironmentSettings.from(
                    Map.of("BULWARK_PXE_ADDRESS", "10.40.0.1", "BULWARK_PXE_RANGE", "10.40.0.100")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("first-last");
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_PXE_ADDRESS", "eno2")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("IPv4");
  }

  @Test
  void portsAreParsed() {
    EnvironmentSettings s =
        EnvironmentSettings.from(
            Map.of("BULWARK_HTTPS_PORT", "18443", "BULWARK_SIM_PORT", "19400"));
    assertThat(s.overridesFor("io.bulwark.web")).containsEntry("httpsPort", 18443);
    assertThat(s.overridesFor("io.bulwark.sim")).containsEntry("port", 19400);
  }

  @Test
  void theSimulatedBmcsAreNoneOrAWholeNumberWithinTheSimulatorsLimit() {
    assertThat(
            EnvironmentSettings.from(Map.of("BULWARK_SIM_BMCS", "0"))
                .overridesFor("io.bulwark.sim"))
        .containsEntry("bmcs", 0);
    assertThat(
            EnvironmentSettings.from(Map.of("BULWARK_SIM_BMCS", "64"))
                .overridesFor("io.bulwark.sim"))
        .containsEntry("bmcs", 64);
    for (String bad : new String[] {"-1", "4097", "all"}) {
      assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_SIM_BMCS", bad)))
          .hasMessageContaining("BULWARK_SIM_BMCS");
    }
  }

  @Test
  void theSimulatedFleetSizeIsAWholeNumberWithinTheSimulatorsLimit() {
    assertThat(
            EnvironmentSettings.from(Map.of("BULWARK_SIM_NODES", "2048"))
                .overridesFor("io.bulwark.sim"))
        .containsEntry("nodes", 2048);
    for (String bad : new String[] {"0", "-1", "4097", "many", "1.5"}) {
      assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_SIM_NODES", bad)))
          .hasMessageContaining("BULWARK_SIM_NODES")
          .hasMessageContaining("1 to 4096");
    }
  }

  @Test
  void theAuditQuotaIsReadInBytesOrBinaryUnits() {
    assertThat(
            EnvironmentSettings.from(Map.of("BULWARK_AUDIT_MAX_BYTES", "2G"))
                .overridesFor("io.bulwark.audit"))
        .containsEntry("maxBytes", 2L << 30);
    assertThat(EnvironmentSettings.bytes("X", "512MiB")).isEqualTo(512L << 20);
    assertThat(EnvironmentSettings.bytes("X", "1048576")).isEqualTo(1L << 20);
    for (String bad : new String[] {"0", "-5", "2X", "big", "99999999999T"}) {
      assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_AUDIT_MAX_BYTES", bad)))
          .hasMessageContaining("BULWARK_AUDIT_MAX_BYTES")
          .hasMessageContaining("2048M or 2G");
    }
  }

  @Test
  void agentBindAddressAndPortGoToTheAgentOnly() {
    EnvironmentSettings s =
        EnvironmentSettings.from(
            Map.of("BULWARK_AGENT_BIND_ADDRESS", "0.0.0.0", "BULWARK_AGENT_PORT", "19401"));

    assertThat(s.overridesFor("io.bulwark.agent"))
        .containsExactly(Map.entry("bindAddress", "0.0.0.0"), Map.entry("port", 19401));
    assertThat(s.overridesFor("io.bulwark.web")).isEmpty();
    assertThat(s.overridesFor("io.bulwark.sim")).isEmpty();
  }

  @Test
  void badAgentSettingsAreRefusedNamingTheVariable() {
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_AGENT_PORT", "0")))
        .hasMessageContaining("BULWARK_AGENT_PORT")
        .hasMessageContaining("1 to 65535");
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_AGENT_PORT", "9400x")))
        .hasMessageContaining("BULWARK_AGENT_PORT")
        .hasMessageContaining("9400x");
    assertThatThrownBy(
            () -> EnvironmentSettings.from(Map.of("BULWARK_AGENT_BIND_ADDRESS", "127.0.0.1 x")))
        .hasMessageContaining("BULWARK_AGENT_BIND_ADDRESS")
        .hasMessageContaining("IP address or host name");
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_AGENT_PORT", "")))
        .hasMessageContaining("BULWARK_AGENT_PORT")
        .hasMessageContaining("empty");
  }

  @Test
  void badValuesAreRefusedNamingTheVariable() {
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_HTTPS_PORT", "eighty")))
        .hasMessageContaining("BULWARK_HTTPS_PORT")
        .hasMessageContaining("eighty");
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_HTTPS_PORT", "70000")))
        .hasMessageContaining("BULWARK_HTTPS_PORT")
        .hasMessageContaining("1 to 65535");
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_HTTP_PORT", "8080")))
        .hasMessageContaining("BULWARK_HTTP_PORT")
        .hasMessageContaining("HTTPS only");
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_DEVELOPMENT_MODE", "yes")))
        .hasMessageContaining("BULWARK_DEVELOPMENT_MODE");
    assertThatThrownBy(
            () -> EnvironmentSettings.from(Map.of("BULWARK_TPM_TCTI", "swtpm:host=x;rm")))
        .hasMessageContaining("BULWARK_TPM_TCTI");
    assertThatThrownBy(
            () ->
                EnvironmentSettings.from(
                    Map.of("BULWARK_FILE_SD", dir.resolve("none.json").toString())))
        .hasMessageContaining("BULWARK_FILE_SD")
        .hasMessageContaining("no readable file");
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_DATA_DIR", " ")))
        .hasMessageContaining("BULWARK_DATA_DIR")
        .hasMessageContaining("empty");
    assertThatThrownBy(
            () -> EnvironmentSettings.from(Map.of("BULWARK_BIND_ADDRESS", "0.0.0.0; rm -rf")))
        .hasMessageContaining("BULWARK_BIND_ADDRESS");
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_SIM_SCENARIO", "chaos")))
        .hasMessageContaining("BULWARK_SIM_SCENARIO")
        .hasMessageContaining("demo or none");
  }

  @Test
  void aDataDirThatIsAFileIsRefused() throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "x");
    assertThatThrownBy(() -> EnvironmentSettings.from(Map.of("BULWARK_DATA_DIR", file.toString())))
        .hasMessageContaining("BULWARK_DATA_DIR")
        .hasMessageContaining("not a folder");
  }

  @Test
  void thePluginOverridesOnlyTheConfigurationItBelongsTo() {
    EnvironmentOverrides plugin =
        new EnvironmentOverrides(Map.of("BULWARK_HTTPS_PORT", "18443"), false);
    Hashtable<String, Object> web =
        new Hashtable<>(Map.of("service.pid", "io.bulwark.web", "httpsPort", 8443));
    Hashtable<String, Object> store =
        new Hashtable<>(Map.of("service.pid", "io.bulwark.store", "dataDir", "data"));
    plugin.modifyConfiguration(null, web);
    plugin.modifyConfiguration(null, store);
    assertThat(web).containsEntry("httpsPort", 18443);
    assertThat(store).containsEntry("dataDir", "data").hasSize(2);
  }
}
