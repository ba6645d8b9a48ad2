package io.bulwark.security.tpm.internal;

import static io.bulwark.security.tpm.internal.TpmKeySealerTest.randomKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seals to PCRs 0 and 7 of a real software TPM and changes PCR values under the sealed key. */
class PcrBoundSealTest {
  @TempDir static Path state;
  private static Swtpm tpm;
  private static TpmKeySealer sealer;

  @BeforeAll
  static void startTpm() throws Exception {
    tpm = Swtpm.start(Files.createDirectory(state.resolve("tpm")));
    sealer =
        new TpmKeySealer(
            new SealerOptions(tpm.tcti(), PcrSelection.parse("0,7")), Tss2Libraries.load());
  }

  @AfterAll
  static void stopTpm() throws Exception {
    if (tpm != null) {
      tpm.close();
    }
  }

  @Test
  void theDescriptionNamesThePcrs() {
    assertThat(sealer.description()).endsWith("PCRs 0,7 (SHA-256)");
  }

  @Test
  void givenUnchangedPcrs_whenUnsealed_thenTheKeyComesBack() {
    byte[] key = randomKey(32);

    byte[] blob = sealer.seal(key);

    assertThat(SealedBlob.parse(blob).pcrs()).isEqualTo(PcrSelection.parse("0,7"));
    assertThat(sealer.unseal(blob)).isEqualTo(key);
    assertThat(sealer.unseal(blob)).as("unsealing leaves the PCRs alone").isEqualTo(key);
  }

  @Test
  void givenABoundPcrWasExtended_whenUnsealed_thenThePolicyRefusesIt() {
    byte[] key = randomKey(32);
    byte[] blob = sealer.seal(key);

    extend(7);

    assertThatThrownBy(() -> sealer.unseal(blob))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TPM at " + tpm.tcti() + " refused to unseal the key")
        .hasMessageContaining("policy check failed (0x99d)")
        .hasMessageContaining("the PCR values changed since the key was sealed");
    byte[] resealed = sealer.seal(key);
    assertThat(sealer.unseal(resealed)).as("sealing again binds to the new values").isEqualTo(key);
  }

  @Test
  void thePolicySessionKeepsTheKeyOffTheWire() throws Exception {
    byte[] key = randomKey(32);
    try (RecordingRelay relay = new RecordingRelay(tpm.port())) {
      TpmKeySealer overRelay =
          new TpmKeySealer(
              new SealerOptions(relay.tcti(), PcrSelection.parse("0,7")), Tss2Libraries.load());

      assertThat(overRelay.unseal(overRelay.seal(key))).isEqualTo(key);
      assertThat(TpmKeySealerTest.indexOf(relay.recorded(), key)).isEqualTo(-1);
    }
  }

  @Test
  void extendingAPcrOutsideTheSelectionDoesNotMatter() {
    byte[] key = randomKey(32);
    byte[] blob = sealer.seal(key);

    extend(9);

    assertThat(sealer.unseal(blob)).isEqualTo(key);
  }

  @Test
  void removingThePcrsFromTheBlobDoesNotBypassThePolicy() {
    SealedBlob blob = SealedBlob.parse(sealer.seal(randomKey(32)));
    byte[] stripped =
        new SealedBlob(blob.storageKeyName(), PcrSelection.NONE, blob.object()).toBytes();
    byte[] otherPcrs =
        new SealedBlob(blob.storageKeyName(), PcrSelection.parse("0"), blob.object()).toBytes();

    assertThatThrownBy(() -> sealer.unseal(stripped))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("refused to unseal the key")
        .hasMessageContaining("needs a PCR policy");
    assertThatThrownBy(() -> sealer.unseal(otherPcrs))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("policy check failed");
  }

  @Test
  void aBlobCarriesItsOwnPcrsWhateverTheUnsealingSealerIsConfiguredWith() {
    byte[] key = randomKey(32);
    TpmKeySealer unbound = TpmKeySealerTest.sealerFor(tpm);

    assertThat(unbound.unseal(sealer.seal(key))).isEqualTo(key);
    assertThat(sealer.unseal(unbound.seal(key))).isEqualTo(key);
  }

  private static void extend(int pcr) {
    try (TpmConnection connection =
        TpmConnection.open(Tss2Libraries.load(), TpmKeySealerTest.errors(tpm))) {
      connection.extendPcr(pcr, randomKey(32));
    }
  }
}
