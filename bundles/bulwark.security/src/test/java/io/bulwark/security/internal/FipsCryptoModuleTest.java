package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.security.CryptoModuleStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.security.Signature;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.CryptoServicesRegistrar;
import org.bouncycastle.crypto.fips.FipsSecureRandom;
import org.bouncycastle.jcajce.provider.BouncyCastleFipsProvider;
import org.bouncycastle.jsse.provider.BouncyCastleJsseProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The FIPS module comes up in approved-only mode with its self-tests passed, in the right provider
 * order, and refuses what FIPS 140-3 does not approve; a JVM without the approved-only flag is
 * refused with a message that says how to fix it.
 */
class FipsCryptoModuleTest {

  @BeforeAll
  static void bringUpModule() {
    Fips.module();
  }

  @Test
  void reportsApprovedOnlyModeAndPassedSelfTests() {
    CryptoModuleStatus status = Fips.module().status();

    assertThat(status.name()).isEqualTo("BouncyCastle FIPS");
    assertThat(status.version()).matches("2\\.\\d+\\.\\d+");
    assertThat(status.approvedOnly()).isTrue();
    assertThat(status.selfTestsPassed()).isTrue();
  }

  @Test
  void putsBcFipsFirstAndBcJsseInFipsModeSecond() {
    Provider[] providers = Security.getProviders();

    assertThat(providers[0]).isInstanceOf(BouncyCastleFipsProvider.class);
    assertThat(providers[1]).isInstanceOf(BouncyCastleJsseProvider.class);
    assertThat(((BouncyCastleJsseProvider) providers[1]).isFipsMode()).isTrue();
  }

  @Test
  void activatingAgainKeepsTheOrderWithoutDuplicates() {
    new FipsCryptoModule();

    Provider[] providers = Security.getProviders();
    assertThat(providers[0].getName()).isEqualTo("BCFIPS");
    assertThat(providers[1].getName()).isEqualTo("BCJSSE");
    assertThat(java.util.Arrays.stream(providers).filter(p -> p.getName().startsWith("BC")))
        .hasSize(2);
  }

  @Test
  void approvedOnlyModeHoldsOnEveryNewThread() throws Exception {
    boolean approvedElsewhere =
        CompletableFuture.supplyAsync(CryptoServicesRegistrar::isInApprovedOnlyMode)
            .get(10, TimeUnit.SECONDS);

    assertThat(approvedElsewhere).isTrue();
  }

  @Test
  void setsTheModulesDrbgAsTheDefaultRandomSource() {
    assertThat(CryptoServicesRegistrar.getSecureRandom()).isInstanceOf(FipsSecureRandom.class);
    assertThat(Fips.module().random()).isSameAs(CryptoServicesRegistrar.getSecureRandom());
  }

  @Test
  void refusesMd5() {
    assertThatThrownBy(() -> MessageDigest.getInstance("MD5", "BCFIPS"))
        .isInstanceOf(java.security.NoSuchAlgorithmException.class);
  }

  @Test
  void refusesDesAndTripleDesEncryption() {
    assertThatThrownBy(() -> Cipher.getInstance("DES/CBC/PKCS5Padding", "BCFIPS"))
        .isInstanceOf(java.security.NoSuchAlgorithmException.class);
    assertThatThrownBy(
            () -> {
              Cipher cipher = Cipher.getInstance("DESede/CBC/PKCS5Padding", "BCFIPS");
              byte[] key = new byte[24];
              Fips.module().random().nextBytes(key);
              cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "DESede"));
            })
        .hasMessageContaining("Triple-DES encryption disallowed");
  }

  @Test
  void refusesRsa1024KeysOnAnyThread() throws Exception {
    assertThatThrownBy(() -> KeyPairGenerator.getInstance("RSA", "BCFIPS").initialize(1024))
        .hasMessageContaining("unapproved");
    Throwable onOtherThread =
        CompletableFuture.supplyAsync(
                () -> {
                  try {
                    KeyPairGenerator.getInstance("RSA", "BCFIPS").initialize(1024);
                    return null;
                  } catch (Throwable t) {
                    return t;
                  }
                })
            .get(10, TimeUnit.SECONDS);
    assertThat(onOtherThread).isNotNull().hasMessageContaining("unapproved");
  }

  @Test
  void refusesSha1Signatures() {
    assertThatThrownBy(
            () -> {
              KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", "BCFIPS");
              generator.initialize(
                  new java.security.spec.ECGenParameterSpec("secp256r1"), Fips.module().random());
              Signature signature = Signature.getInstance("SHA1withECDSA", "BCFIPS");
              signature.initSign(generator.generateKeyPair().getPrivate());
              signature.update(new byte[] {1});
              signature.sign();
            })
        .isInstanceOf(org.bouncycastle.crypto.fips.FipsUnapprovedOperationError.class)
        .hasMessageContaining("SHA-1 is not approved for signature generation");
  }

  @Test
  void refusesToStartWhenTheSelfTestFailed() {
    ModuleReadings failed =
        new ModuleReadings(false, "Module checksum failed", true, true, "2.1.0");

    assertThatThrownBy(failed::requireSound)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("the FIPS module failed its self-test: Module checksum failed");
  }

  @Test
  void refusesToStartWhenApprovedOnlyIsNotGlobal() {
    ModuleReadings threadOnly = new ModuleReadings(true, "READY", true, false, "2.1.0");

    assertThatThrownBy(threadOnly::requireSound)
        .hasMessageContaining("approved-only mode is off on new threads");
  }

  @Test
  void aJvmWithoutTheApprovedOnlyFlagIsRefusedWithTheFix() throws Exception {
    Process probe =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ModuleStartProcess.class.getName())
            .redirectErrorStream(true)
            .start();
    String output;
    try {
      assertThat(probe.waitFor(60, TimeUnit.SECONDS)).as("probe JVM finished").isTrue();
      output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      probe.destroyForcibly();
    }

    assertThat(output)
        .contains(
            "refused: approved-only mode is off: start the JVM with"
                + " -Dorg.bouncycastle.fips.approved_only=true");
    assertThat(probe.exitValue()).isEqualTo(3);
  }

  /** Guards the probe above: the same start in this (flagged) JVM succeeds. */
  @Test
  void theProbeStartsCleanlyWhenFlagged() throws IOException {
    assertThat(ModuleStartProcess.start()).isEqualTo("started 2");
  }
}
