package io.bulwark.bmc.ipmi.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
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
import java.lang.annotation.Annotation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The IPMI driver against a real BMC simulator, OpenIPMI's {@code ipmi_sim} 2.0.33 (Debian package
 * openipmi), cross-checked with Debian's {@code ipmitool -I lanplus}, with the FIPS module in
 * approved-only mode as in the appliance.
 *
 * <p>ipmi_sim 2.0.33 cannot do cipher suite 17: its RMCP+ code has RAKP-HMAC-SHA1 and RAKP-HMAC-MD5
 * only (its lanserv library links OpenSSL's SHA-1 and MD5, no SHA-256), it lists suites 0 to 11 in
 * Get Channel Cipher Suites, and {@code ipmitool -C 17} against it fails with "invalid
 * authentication algorithm". So: the product driver (the DS component's suite 17) is shown to
 * REFUSE it, before any credential is used, with the suites it offers; and the protocol itself
 * (capabilities, Open Session, RAKP 1-4, encrypted and integrity-protected commands, identity,
 * power, boot flags, SDR sensors, SEL, Close Session) runs at the strongest suite the sim has,
 * suite 3 (RAKP-HMAC-SHA1, HMAC-SHA1-96, AES-CBC-128), through the package-private constructor that
 * only tests use. The suite-17 specific parts (SHA-256 lengths and truncations) are covered by
 * {@link RmcpPacketsTest}, and a whole suite 17 login by {@link Suite17Test}, against a test double
 * that ipmitool -C 17 logs in to as well.
 */
class IpmiDriverTest {
  @TempDir static Path dir;
  private static IpmiSimulator sim;

  private static final IpmiOptions FAST =
      new IpmiOptions(
          Duration.ofMillis(500), 2, Duration.ofSeconds(5), Duration.ofSeconds(5), true);

  /** Test only: suite 3, because ipmi_sim has no suite 17 (see the class comment). */
  private final IpmiDriver suite3 = new IpmiDriver(FAST, CipherSuite.SUITE_3);

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(
        IpmiSimulator.installed() && IpmiSimulator.ipmitoolInstalled(),
        "ipmi_sim or ipmitool is not installed (Debian packages openipmi and ipmitool, installed by"
            + " .ci/install-deps): the IPMI driver is not tested against a simulated BMC here");
    FipsProviders.install();
    sim = IpmiSimulator.start(dir);
  }

  @AfterAll
  static void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  private static BmcEndpoint endpoint() {
    return new BmcEndpoint(BmcProtocol.IPMI, "127.0.0.1", sim.port(), "machine.bmc.sim", "");
  }

  private BmcConnection connect() throws BmcException {
    return suite3.connect(
        endpoint(), new BmcCredentials(IpmiSimulator.USER, IpmiSimulator.PASSWORD.toCharArray()));
  }

  private static String bmc() {
    return "127.0.0.1:" + sim.port();
  }

  @Test
  void theProductDriverRefusesABmcWithoutSuite17AndNamesTheSuitesItOffers() throws Exception {
    IpmiDriver product = new IpmiDriver(quickConfig());
    assertThat(product.protocol()).isEqualTo(BmcProtocol.IPMI);
    assertThat(product.presentedFingerprint(endpoint())).isEmpty();
    assertThatThrownBy(
            () ->
                product.connect(
                    endpoint(),
                    new BmcCredentials(IpmiSimulator.USER, IpmiSimulator.PASSWORD.toCharArray())))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("BMC " + bmc() + " offers only weaker IPMI cipher suites")
        .hasMessageContaining("3 (RAKP-HMAC-SHA1, HMAC-SHA1-96, AES-CBC-128)")
        .hasMessageContaining("0 (RAKP-none, no integrity, no encryption)")
        .hasMessageContaining("Enable cipher suite 17")
        .hasMessageContaining("no credential was sent")
        .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.UNSUPPORTED));
    assertThat(sim.ipmitool("-C", "17", "chassis", "power", "status").output())
        .as("ipmi_sim itself cannot do suite 17")
        .contains("invalid authentication algorithm");
  }

  @Test
  void identityMatchesTheFruAndTheGuidThatIpmitoolReads() throws Exception {
    BmcIdentity id;
    try (BmcConnection c = connect()) {
      id = c.identity();
    }
    assertThat(id.manufacturer()).isEqualTo("Bulwark Labs");
    assertThat(id.model()).isEqualTo("GX-8 Test Node");
    assertThat(id.serial()).isEqualTo("SIM-000123");
    assertThat(id.hostname()).isEmpty();
    String fru = sim.ipmitool("-C", "3", "fru", "print", "0").output();
    assertThat(fru).contains("Product Serial        : SIM-000123");
    String guid = sim.ipmitool("-C", "3", "mc", "guid").output();
    assertThat(guid.toLowerCase(Locale.ROOT)).contains(id.uuid());
  }

  @Test
  void powerActionsShowInIpmitoolsChassisPowerStatus() throws Exception {
    try (BmcConnection c = connect()) {
      c.power(PowerAction.ON);
      assertThat(c.power()).isEqualTo(PowerState.ON);
      c.power(PowerAction.OFF);
      assertThat(c.power()).isEqualTo(PowerState.OFF);
      assertThat(sim.ipmitool("-C", "3", "chassis", "power", "status").output())
          .contains("Chassis Power is off");
      c.power(PowerAction.CYCLE); // off: a cycle is a power up
      assertThat(c.power()).isEqualTo(PowerState.ON);
      assertThat(sim.ipmitool("-C", "3", "chassis", "power", "status").output())
          .contains("Chassis Power is on");
      c.power(PowerAction.SOFT_OFF);
      assertThat(c.power()).isEqualTo(PowerState.OFF);
    }
    assertThat(sim.chassisLog()).contains("set shutdown").contains("set power 0");
    assertThat(sim.powerFile()).isEqualTo("0");
    sim.setPower(true);
  }

  @Test
  void aCycleOfARunningSystemIsTheBmcsPowerCycle() throws Exception {
    sim.setPower(true);
    try (BmcConnection c = connect()) {
      c.power(PowerAction.CYCLE);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (c.power() != PowerState.ON && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(c.power()).isEqualTo(PowerState.ON);
    }
    // ipmi_sim's power cycle: off at once, on again after a second.
    assertThat(sim.chassisLog()).contains("set power 0");
  }

  @Test
  void theNextBootShowsInIpmitoolsBootFlags() throws Exception {
    try (BmcConnection c = connect()) {
      c.setNextBoot(BootDevice.PXE, true);
      assertThat(sim.ipmitool("-C", "3", "chassis", "bootparam", "get", "5").output())
          .contains("Force PXE");
      c.setNextBoot(BootDevice.BIOS_SETUP, false);
      assertThat(sim.ipmitool("-C", "3", "chassis", "bootparam", "get", "5").output())
          .contains("Force Boot into BIOS Setup");
      c.setNextBoot(BootDevice.DISK, true);
      assertThat(sim.ipmitool("-C", "3", "chassis", "bootparam", "get", "5").output())
          .contains("Force Boot from default Hard-Drive");
      assertThatThrownBy(() -> c.setNextBoot(BootDevice.HTTP, true))
          .isInstanceOf(BmcException.class)
          .hasMessageContaining("cannot be told to boot over UEFI HTTP")
          .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.UNSUPPORTED));
    }
  }

  @Test
  void sensorsMatchIpmitoolsSdrList() throws Exception {
    List<BmcSensor> sensors;
    try (BmcConnection c = connect()) {
      sensors = c.sensors();
    }
    Map<String, BmcSensor> byName = new HashMap<>();
    sensors.forEach(s -> byName.put(s.name(), s));
    assertThat(byName)
        .containsOnlyKeys(
            "CPU Temp", "GPU Temp", "Fan 1", "12V", "Total Power", "PSU1 Status", "PSU2 Status");
    BmcSensor cpu = byName.get("CPU Temp");
    assertThat(cpu.kind()).isEqualTo(BmcSensor.Kind.TEMPERATURE);
    assertThat(cpu.value()).isEqualTo(45.0);
    assertThat(cpu.unit()).isEqualTo("Cel");
    assertThat(cpu.health()).isEqualTo("OK");
    assertThat(cpu.upperCritical()).isEqualTo(85.0);
    assertThat(cpu.lowerCritical()).isEqualTo(5.0);
    assertThat(byName.get("GPU Temp").health()).isEqualTo("Critical");
    assertThat(byName.get("Fan 1").value()).isEqualTo(4500.0);
    assertThat(byName.get("Fan 1").unit()).isEqualTo("RPM");
    assertThat(byName.get("Fan 1").kind()).isEqualTo(BmcSensor.Kind.FAN);
    assertThat(byName.get("12V").value()).isCloseTo(12.05, within(1e-9));
    assertThat(byName.get("12V").kind()).isEqualTo(BmcSensor.Kind.VOLTAGE);
    assertThat(byName.get("Total Power").value()).isEqualTo(300.0);
    assertThat(byName.get("Total Power").kind()).isEqualTo(BmcSensor.Kind.POWER);
    assertThat(byName.get("PSU1 Status").kind()).isEqualTo(BmcSensor.Kind.POWER_SUPPLY);
    assertThat(byName.get("PSU1 Status").health()).isEqualTo("OK");
    assertThat(byName.get("PSU2 Status").health()).isEqualTo("Critical");

    String sdr = sim.ipmitool("-C", "3", "sdr", "list").output();
    int matched = 0;
    for (String line : sdr.split("\n")) {
      String[] cols = line.split("\\|");
      if (cols.length < 3 || !byName.containsKey(cols[0].strip())) {
        continue;
      }
      matched++;
      String[] value = cols[1].strip().split(" ");
      BmcSensor ours = byName.get(cols[0].strip());
      if (!Double.isNaN(ours.value())) {
        assertThat(Double.parseDouble(value[0])).as(line).isCloseTo(ours.value(), within(0.01));
      }
    }
    assertThat(matched).as("every sensor is in ipmitool's sdr list:\n" + sdr).isEqualTo(7);
  }

  @Test
  void theEventLogMatchesIpmitoolsSelListNewestFirst() throws Exception {
    List<BmcLogEntry> log;
    List<BmcLogEntry> two;
    try (BmcConnection c = connect()) {
      log = c.eventLog(100);
      two = c.eventLog(2);
    }
    String sel = sim.ipmitool("-C", "3", "sel", "list").output();
    List<String> lines = sel.lines().filter(l -> l.contains("|")).toList();
    // Five entries from sel_add and two the sim logged itself when the supplies became present.
    assertThat(log).as(sel).hasSize(lines.size()).hasSize(7);
    for (int i = 0; i < log.size(); i++) {
      String line = lines.get(lines.size() - 1 - i);
      assertThat(line).as("newest first").contains(log.get(i).sensorType());
      assertThat(Integer.parseInt(line.split("\\|")[0].strip(), 16))
          .isEqualTo(Integer.parseInt(log.get(i).id()));
    }
    BmcLogEntry ecc = log.get(0);
    assertThat(ecc.sensorType()).isEqualTo("Memory");
    assertThat(ecc.message()).contains("Memory").contains("uncorrectable ECC");
    assertThat(ecc.severity()).isEqualTo("Critical");
    assertThat(log.get(1).sensorType()).isEqualTo("Power Supply");
    assertThat(log.get(1).message()).contains("power supply failure detected");
    assertThat(log.get(1).severity()).isEqualTo("Critical");
    assertThat(log.get(2).sensorType()).isEqualTo("Critical Interrupt");
    assertThat(log.get(2).severity()).isEqualTo("Critical");
    assertThat(log.get(3).sensorType()).isEqualTo("Processor");
    assertThat(log.get(3).message()).contains("IERR");
    assertThat(log.get(4).message()).contains("upper critical going high");
    assertThat(log.get(6).severity()).isEqualTo("OK");
    // ipmi_sim stamps each entry with its own clock, which starts at 0 with the sim: every time
    // is "since BMC init" (ipmitool shows Pre-Init), so none has a date. Dated entries:
    // SelRecordTest.
    assertThat(sel).contains("Pre-Init");
    assertThat(log).allSatisfy(e -> assertThat(e.created()).isNull());
    assertThat(two).containsExactly(log.get(0), log.get(1));
  }

  @Test
  void aWrongPasswordIsRefusedCredentialsWithAClearMessage() {
    assertThatThrownBy(
            () ->
                suite3.connect(
                    endpoint(),
                    new BmcCredentials(IpmiSimulator.USER, "wrong-password".toCharArray())))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining(
            "BMC " + bmc() + " refused the credentials for user " + IpmiSimulator.USER)
        .hasMessageContaining("check the user name and password stored for this machine")
        .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.CREDENTIALS))
        .satisfies(e -> assertThat(((BmcException) e).retryable()).isFalse());
    assertThatThrownBy(
            () ->
                suite3.connect(
                    endpoint(), new BmcCredentials("nobody", IpmiSimulator.PASSWORD.toCharArray())))
        .isInstanceOf(BmcException.class)
        .hasMessageContaining("refused the credentials for user nobody")
        .satisfies(e -> assertThat(((BmcException) e).kind()).isEqualTo(Kind.CREDENTIALS));
  }

  @Test
  void connectionsOnDifferentThreadsWorkAtOnce() throws Exception {
    List<CompletableFuture<PowerState>> runs =
        List.of(1, 2, 3, 4).stream()
            .map(
                i ->
                    CompletableFuture.supplyAsync(
                        () -> {
                          try (BmcConnection c = connect()) {
                            c.sensors();
                            return c.power();
                          } catch (BmcException e) {
                            throw new IllegalStateException(e);
                          }
                        }))
            .toList();
    for (CompletableFuture<PowerState> r : runs) {
      assertThat(r.get(20, TimeUnit.SECONDS)).isNotEqualTo(PowerState.UNKNOWN);
    }
  }

  /** The DS component's configuration, with the short timeouts of a test. */
  static IpmiConfig quickConfig() {
    return new IpmiConfig() {
      @Override
      public Class<? extends Annotation> annotationType() {
        return IpmiConfig.class;
      }

      @Override
      public int requestMillis() {
        return 500;
      }

      @Override
      public int retries() {
        return 1;
      }

      @Override
      public int softOffSeconds() {
        return 120;
      }

      @Override
      public int powerSeconds() {
        return 60;
      }

      @Override
      public boolean uefiBoot() {
        return true;
      }
    };
  }
}
