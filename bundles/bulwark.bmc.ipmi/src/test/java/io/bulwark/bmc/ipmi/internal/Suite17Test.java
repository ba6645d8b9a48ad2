package io.bulwark.bmc.ipmi.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bulwark.api.bmc.BmcConnection;
import io.bulwark.api.bmc.BmcCredentials;
import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.api.bmc.BmcIdentity;
import io.bulwark.api.bmc.BmcLogEntry;
import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.BootDevice;
import io.bulwark.api.bmc.PowerAction;
import io.bulwark.api.machine.BmcEndpoint;
import io.bulwark.api.machine.BmcProtocol;
import io.bulwark.api.machine.PowerState;
import io.bulwark.testing.FipsProviders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cipher suite 17 end to end, against {@link Suite17Bmc}, a test double written from IPMI v2.0
 * section 13 (no real BMC or simulator here speaks suite 17), with the FIPS module in approved-only
 * mode. First the double is validated against an independent, real implementation: Debian's {@code
 * ipmitool -I lanplus -C 17} logs in to it and reads and changes power and the boot device. Then
 * the product driver, built as the DS component builds it, logs in with suite 17 and reads
 * identity, power, boot flags, sensors and the event log, is refused a wrong password as
 * CREDENTIALS and a BMC that lists only weaker suites as UNSUPPORTED.
 */
class Suite17Test {
  private static final Path IPMITOOL = Path.of("/usr/bin/ipmitool");

  private final IpmiDriver product = new IpmiDriver(IpmiDriverTest.quickConfig());
  private Suite17Bmc bmc;

  @BeforeAll
  static void providers() {
    FipsProviders.install();
  }

  @BeforeEach
  void start() throws Exception {
    bmc = Suite17Bmc.start();
  }

  @AfterEach
  void stop() {
    bmc.close();
  }

  private BmcEndpoint endpoint(Suite17Bmc at) {
    return new BmcEndpoint(BmcProtocol.IPMI, "127.0.0.1", at.port(), "machine.bmc.suite17", "");
  }

  private BmcConnection connect() throws BmcException {
    return product.connect(
        endpoint(bmc), new BmcCredentials(Suite17Bmc.USER, Suite17Bmc.PASSWORD.toCharArray()));
  }

  record Result(int exitCode, String output) {}

  /** Runs {@code ipmitool -I lanplus -C 17} as {@code user} against the double. */
  private Result ipmitoolAs(String user, String password, String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                IPMITOOL.toString(),
                "-I",
                "lanplus",
                "-C",
                "17",
                "-H",
                "127.0.0.1",
                "-p",
                Integer.toString(bmc.port()),
                "-U",
                user,
                "-P",
                password,
                "-N",
                "1",
                "-R",
                "1"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Result(-1, out);
    }
    return new Result(p.exitValue(), out);
  }

  private Result ipmitool(String... args) throws Exception {
    return ipmitoolAs(Suite17Bmc.USER, Suite17Bmc.PASSWORD, args);
  }

  private static void assumeIpmitool() {
    assumeTrue(
        Files.isExecutable(IPMITOOL),
        "ipmitool is not installed (Debian package ipmitool): the suite 17 double is not"
            + " validated against it here");
  }

  @Test
  void ipmitoolLogsInWithSuite17AndReportsAndChangesWhatTheDoubleHolds() throws Exception {
    assumeIpmitool();
    Result status = ipmitool("chassis", "power", "status");
    assertThat(status.output()).as(status.output()).contains("Chassis Power is on");
    assertThat(status.exitCode()).isZero();
    assertThat(bmc.events())
        .as("ipmitool proposed exactly suite 17's algorithms and completed RAKP 1-4")
        .contains("open session 03/04/01", "rakp1 bulwark", "active", "command 00/01", "closed");

    Result off = ipmitool("chassis", "power", "off");
    assertThat(off.output()).as(off.output()).contains("Chassis Power Control: Down/Off");
    assertThat(bmc.machine().powerOn()).isFalse();
    assertThat(ipmitool("chassis", "power", "status").output()).contains("Chassis Power is off");

    Result pxe = ipmitool("chassis", "bootdev", "pxe");
    assertThat(pxe.output()).as(pxe.output()).contains("Set Boot Device to pxe");
    assertThat(bmc.machine().bootFlags()[1] & 0x3c).as("PXE").isEqualTo(0x04);
    assertThat(ipmitool("chassis", "bootparam", "get", "5").output()).contains("Force PXE");

    assertThat(bmc.openSessions()).as("ipmitool closed each session").isZero();
  }

  @Test
  void ipmitoolReadsTheDoublesIdentityCipherSuitesSensorsAndEventLog() throws Exception {
    assumeIpmitool();
    Result verbose = ipmitool("-vvv", "mc", "guid");
    assertThat(verbose.output())
        .as(verbose.output())
        .contains("Negotiated authenticatin algorithm : hmac_sha256")
        .contains("Negotiated integrity algorithm     : sha256_128")
        .contains("Negotiated encryption algorithm    : aes_cbc_128")
        .contains("IPMIv2 / RMCP+ SESSION OPENED SUCCESSFULLY");
    assertThat(verbose.output().toLowerCase(Locale.ROOT)).contains(Suite17Bmc.GUID_TEXT);
    assertThat(ipmitool("mc", "info").output())
        .contains("IPMI Version              : 2.0")
        .contains("Manufacturer ID           : 10876");
    assertThat(ipmitool("fru", "print", "0").output())
        .contains("Product Name          : GX-8 Test Node")
        .contains("Product Serial        : SIM-000123");
    assertThat(ipmitool("channel", "getciphers", "ipmi").output())
        .containsPattern("17\\s+N/A\\s+hmac_sha256\\s+sha256_128\\s+aes_cbc_128");
    assertThat(ipmitool("sdr", "list").output())
        .containsPattern("CPU Temp\\s+\\| 45 degrees C\\s+\\| ok")
        .containsPattern("Fan 1\\s+\\| 4500 RPM\\s+\\| ok");
    assertThat(ipmitool("sel", "list").output())
        .contains("03/24/24 | 10:28:00 UTC | Memory #0x60 | Uncorrectable ECC | Asserted");
  }

  @Test
  void ipmitoolWithAWrongPasswordOrUnknownUserFailsAtRakp2() throws Exception {
    assumeIpmitool();
    Result wrong =
        ipmitoolAs(Suite17Bmc.USER, "not-the-password", "-v", "chassis", "power", "status");
    assertThat(wrong.exitCode()).as(wrong.output()).isNotZero();
    assertThat(wrong.output()).contains("RAKP 2 HMAC is invalid").doesNotContain("Chassis Power");
    assertThat(bmc.events()).doesNotContain("active");
    Result unknown = ipmitoolAs("nobody", Suite17Bmc.PASSWORD, "-v", "chassis", "power", "status");
    assertThat(unknown.output()).contains("RAKP 2 message indicates an error : unauthorized name");
    assertThat(bmc.events()).contains("rakp2 status 0d").doesNotContain("active");
  }

  @Test
  void theProductDriverLogsInWithSuite17AndReadsTheIdentity() throws Exception {
    BmcIdentity id;
    try (BmcConnection c = connect()) {
      id = c.identity();
    }
    assertThat(id.manufacturer()).isEqualTo("Bulwark Labs");
    assertThat(id.model()).isEqualTo("GX-8 Test Node");
    assertThat(id.serial()).isEqualTo("SIM-000123");
    assertThat(id.uuid()).isEqualTo(Suite17Bmc.GUID_TEXT);
    assertThat(bmc.events())
        .contains("open session 03/04/01", "rakp1 bulwark", "active", "privilege 3", "closed");
    assertThat(bmc.events()).noneMatch(e -> e.startsWith("dropped"));
    assertThat(bmc.openSessions()).isZero();
  }

  @Test
  void theProductDriverReadsAndChangesPowerAsIpmitoolSeesIt() throws Exception {
    try (BmcConnection c = connect()) {
      assertThat(c.power()).isEqualTo(PowerState.ON);
      c.power(PowerAction.OFF);
      assertThat(c.power()).isEqualTo(PowerState.OFF);
      assertThat(bmc.machine().powerOn()).isFalse();
      if (Files.isExecutable(IPMITOOL)) {
        assertThat(ipmitool("chassis", "power", "status").output())
            .contains("Chassis Power is off");
      }
      c.power(PowerAction.CYCLE); // off: the driver powers up
      assertThat(c.power()).isEqualTo(PowerState.ON);
      c.power(PowerAction.CYCLE);
      c.power(PowerAction.SOFT_OFF);
      assertThat(c.power()).isEqualTo(PowerState.OFF);
      c.power(PowerAction.ON);
    }
    assertThat(bmc.machine().actions())
        .containsExactly("power down", "power up", "power cycle", "soft shutdown", "power up");
    assertThat(bmc.machine().powerOn()).isTrue();
  }

  @Test
  void theProductDriversNextBootIsTheBootFlagsIpmitoolReads() throws Exception {
    try (BmcConnection c = connect()) {
      c.setNextBoot(BootDevice.PXE, true);
      // Boot flags valid, once, UEFI; device selector 0001b (PXE).
      assertThat(bmc.machine().bootFlags()).containsExactly(0xa0, 0x04, 0, 0, 0);
      if (Files.isExecutable(IPMITOOL)) {
        String flags = ipmitool("chassis", "bootparam", "get", "5").output();
        assertThat(flags).contains("Force PXE").contains("BIOS EFI boot");
      }
      c.setNextBoot(BootDevice.DISK, false);
      assertThat(bmc.machine().bootFlags()).containsExactly(0xe0, 0x08, 0, 0, 0);
    }
  }

  @Test
  void theProductDriverReadsSensorsAndTheEventLog() throws Exception {
    List<BmcSensor> sensors;
    List<BmcLogEntry> log;
    try (BmcConnection c = connect()) {
      sensors = c.sensors();
      log = c.eventLog(10);
    }
    assertThat(sensors).extracting(BmcSensor::name).containsExactly("CPU Temp", "Fan 1");
    assertThat(sensors.get(0).value()).isEqualTo(45.0);
    assertThat(sensors.get(0).unit()).isEqualTo("Cel");
    assertThat(sensors.get(0).health()).isEqualTo("OK");
    assertThat(sensors.get(0).upperCritical()).isEqualTo(85.0);
    assertThat(sensors.get(1).kind()).isEqualTo(BmcSensor.Kind.FAN);
    assertThat(sensors.get(1).value()).isEqualTo(4500.0);
    assertThat(log).hasSize(1);
    assertThat(log.get(0).sensorType()).isEqualTo("Memory");
    assertThat(log.get(0).message()).contains("uncorrectable ECC");
    assertThat(log.get(0).severity()).isEqualTo("Critical");
    assertThat(log.get(0).created()).isEqualTo(Instant.ofEpochSecond(0x66000030L));
  }

  @Test
  void aWrongPasswordIsCredentialsAndTheDriverAbortsTheLogin() throws Exception {
    assertThatThrownBy(
            () ->
                product.connect(
                    endpoint(bmc),
                    new BmcCredentials(Suite17Bmc.USER, "not-the-password".toCharArray())))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("refused the credentials for user " + Suite17Bmc.USER)
        .hasMessageContaining("RAKP 2 proof does not match")
        .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.CREDENTIALS));
    assertThat(bmc.awaitEvent("rakp3 abort 0f")).as("the driver's RAKP 3 abort arrived").isTrue();
    assertThat(bmc.events()).contains("rakp1 bulwark").doesNotContain("active");
    assertThat(bmc.openSessions()).isZero();
  }

  @Test
  void anUnknownUserIsCredentialsFromRakp2() {
    assertThatThrownBy(
            () ->
                product.connect(
                    endpoint(bmc), new BmcCredentials("nobody", Suite17Bmc.PASSWORD.toCharArray())))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("refused the credentials for user nobody")
        .hasMessageContaining("unauthorized name")
        .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.CREDENTIALS));
    assertThat(bmc.events()).contains("rakp2 status 0d");
  }

  @Test
  void aBmcListingOnlyWeakerSuitesIsUnsupportedBeforeAnyCredentialIsSent() throws Exception {
    try (Suite17Bmc weak = Suite17Bmc.offeringOnlyWeakerSuites()) {
      assertThatThrownBy(
              () ->
                  product.connect(
                      endpoint(weak),
                      new BmcCredentials(Suite17Bmc.USER, Suite17Bmc.PASSWORD.toCharArray())))
          .isInstanceOf(BmcException.class)
          .hasMessageContaining("offers only weaker IPMI cipher suites than 17")
          .hasMessageContaining("3 (RAKP-HMAC-SHA1, HMAC-SHA1-96, AES-CBC-128)")
          .hasMessageContaining("0 (RAKP-none, no integrity, no encryption)")
          .hasMessageContaining("no credential was sent")
          .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.UNSUPPORTED));
      assertThat(weak.events())
          .contains("get channel cipher suites 0", "get channel cipher suites 1")
          .noneMatch(e -> e.startsWith("open session") || e.startsWith("rakp"));
    }
  }
}
