package io.bulwark.security.tpm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seals and unseals against a real software TPM started for this class; no PCR binding. */
class TpmKeySealerTest {
  private static final SecureRandom RANDOM = new SecureRandom();

  @TempDir static Path state;
  private static Swtpm tpm;
  private static TpmKeySealer sealer;

  @BeforeAll
  static void startTpm() throws Exception {
    tpm = Swtpm.start(Files.createDirectory(state.resolve("tpm")));
    sealer = sealerFor(tpm);
  }

  @AfterAll
  static void stopTpm() throws Exception {
    if (tpm != null) {
      tpm.close();
    }
  }

  @Test
  void givenASealedKey_whenUnsealed_thenTheSameBytesComeBack() {
    byte[] key = randomKey(32);

    byte[] blob = sealer.seal(key);

    assertThat(indexOf(blob, key)).as("the key must not appear in the blob").isEqualTo(-1);
    assertThat(sealer.unseal(blob)).isEqualTo(key);
    assertThat(sealer.description()).startsWith("TPM 2.0 (").endsWith("not bound to PCRs");
    assertThat(sealer.description()).contains(tpm.tcti());
  }

  @Test
  void theKeyNeverCrossesTheConnectionToTheTpmInTheClear() throws Exception {
    byte[] key = randomKey(32);
    try (RecordingRelay relay = new RecordingRelay(tpm.port())) {
      TpmKeySealer overRelay =
          new TpmKeySealer(
              new SealerOptions(relay.tcti(), PcrSelection.NONE), Tss2Libraries.load());

      byte[] blob = overRelay.seal(key);
      byte[] unsealed = overRelay.unseal(blob);

      assertThat(unsealed).isEqualTo(key);
      byte[] seen = relay.recorded();
      assertThat(indexOf(seen, TpmTemplates.storageKey())).as("commands recorded").isNotNegative();
      assertThat(indexOf(seen, key)).as("position of the key on the wire").isEqualTo(-1);
    }
  }

  @Test
  void sealingTheSameKeyTwiceGivesDifferentBlobsThatBothUnseal() {
    byte[] key = randomKey(32);

    byte[] first = sealer.seal(key);
    byte[] second = sealer.seal(key);

    assertThat(first).isNotEqualTo(second);
    assertThat(sealer.unseal(first)).isEqualTo(key);
    assertThat(sealer.unseal(second)).isEqualTo(key);
  }

  @Test
  void aSecondSealerInstanceWithItsOwnContextUnsealsTheBlob() {
    byte[] key = randomKey(48);
    byte[] blob = sealer.seal(key);

    TpmKeySealer restarted = sealerFor(tpm);

    assertThat(restarted.unseal(blob)).isEqualTo(key);
  }

  @Test
  void secretsFromOneTo128BytesSealAndOthersAreRefused() {
    for (int size : new int[] {1, 16, 128}) {
      byte[] key = randomKey(size);
      assertThat(sealer.unseal(sealer.seal(key))).isEqualTo(key);
    }
    assertThatThrownBy(() -> sealer.seal(new byte[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 to 128 bytes");
    assertThatThrownBy(() -> sealer.seal(new byte[129]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has 129");
  }

  @Test
  void givenAnyOneByteChangeInTheBlob_whenUnsealed_thenItIsRefusedWithAReason() {
    byte[] key = randomKey(32);
    byte[] blob = sealer.seal(key);

    for (int i = 0; i < blob.length; i++) {
      byte[] tampered = blob.clone();
      tampered[i] ^= (byte) (1 << (i % 8));
      Throwable thrown = catchThrowable(() -> sealer.unseal(tampered));
      assertThat(thrown).as("byte %d changed", i).isInstanceOf(IllegalStateException.class);
      assertThat(thrown.getMessage())
          .as("byte %d changed", i)
          .containsAnyOf("damaged", "another TPM", "PCR list was altered");
    }
    assertThat(sealer.unseal(blob)).isEqualTo(key);
  }

  @Test
  void truncatedExtendedOrForeignBytesAreRefusedAsDamaged() {
    byte[] blob = sealer.seal(randomKey(32));

    assertThatThrownBy(() -> sealer.unseal(Arrays.copyOf(blob, blob.length - 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("damaged");
    assertThatThrownBy(() -> sealer.unseal(Arrays.copyOf(blob, blob.length + 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("unexpected bytes");
    assertThatThrownBy(() -> sealer.unseal("-----BEGIN PRIVATE KEY-----".getBytes()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Bulwark sealed-key header");
    assertThatThrownBy(() -> sealer.unseal(new byte[0]))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("truncated");
  }

  @Test
  void givenABlobFromAnotherTpm_whenUnsealed_thenItIsRefused() throws Exception {
    byte[] key = randomKey(32);
    byte[] foreign;
    try (Swtpm other = Swtpm.start(Files.createDirectory(state.resolve("other")))) {
      foreign = sealerFor(other).seal(key);
    }

    assertThatThrownBy(() -> sealer.unseal(foreign))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(tpm.tcti())
        .hasMessageContaining("sealed by another TPM");

    SealedBlob parsed = SealedBlob.parse(foreign);
    byte[] ownKeyName = SealedBlob.parse(sealer.seal(key)).storageKeyName();
    byte[] disguised = new SealedBlob(ownKeyName, parsed.pcrs(), parsed.object()).toBytes();
    assertThatThrownBy(() -> sealer.unseal(disguised))
        .as("the TPM itself refuses an object wrapped by another TPM's storage key")
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("refused to load the sealed key")
        .hasMessageContaining("integrity check failed");
  }

  @Test
  void afterFiftySealUnsealCyclesAndSomeRefusalsNoTransientHandleIsLeft() {
    long[] sealNanos = new long[50];
    long[] unsealNanos = new long[50];
    for (int i = 0; i < 50; i++) {
      byte[] key = randomKey(32);
      long start = System.nanoTime();
      byte[] blob = sealer.seal(key);
      long sealed = System.nanoTime();
      byte[] unsealed = sealer.unseal(blob);
      unsealNanos[i] = System.nanoTime() - sealed;
      sealNanos[i] = sealed - start;
      assertThat(unsealed).isEqualTo(key);
      if (i % 10 == 0) {
        blob[blob.length - 1] ^= 1;
        assertThatThrownBy(() -> sealer.unseal(blob)).isInstanceOf(IllegalStateException.class);
      }
    }

    try (TpmConnection connection = TpmConnection.open(Tss2Libraries.load(), errors(tpm))) {
      assertThat(TpmCapabilities.handles(connection, TpmCapabilities.TRANSIENT_OBJECTS)).isEmpty();
      assertThat(TpmCapabilities.handles(connection, TpmCapabilities.LOADED_SESSIONS)).isEmpty();
    }
    System.out.printf(
        "TPM key sealer on swtpm, 50 cycles: seal median %.1f ms (p90 %.1f), unseal median %.1f ms"
            + " (p90 %.1f)%n",
        percentile(sealNanos, 50),
        percentile(sealNanos, 90),
        percentile(unsealNanos, 50),
        percentile(unsealNanos, 90));
  }

  @Test
  void concurrentCallersAreServedOneAtATime() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        results.add(
            pool.submit(
                () -> {
                  byte[] key = randomKey(32);
                  return Arrays.equals(key, sealer.unseal(sealer.seal(key)));
                }));
      }
      for (Future<Boolean> result : results) {
        assertThat(result.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  static TpmKeySealer sealerFor(Swtpm tpm) {
    return new TpmKeySealer(new SealerOptions(tpm.tcti(), PcrSelection.NONE), Tss2Libraries.load());
  }

  static TpmErrors errors(Swtpm tpm) {
    return new TpmErrors(tpm.tcti(), Tss2Libraries.load().responseCodes());
  }

  static byte[] randomKey(int size) {
    byte[] key = new byte[size];
    RANDOM.nextBytes(key);
    return key;
  }

  static int indexOf(byte[] haystack, byte[] needle) {
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
        return i;
      }
    }
    return -1;
  }

  private static double percentile(long[] nanos, int percent) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, sorted.length * percent / 100)] / 1e6;
  }
}
