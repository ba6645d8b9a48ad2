package io.bulwark.security.tpm.internal;

import static io.bulwark.security.tpm.internal.TpmKeySealerTest.randomKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks the sealer against tpm2-tools on the same software TPM: the blob's areas are standard
 * tpm2-tss files, the storage key is the one tpm2_createprimary derives, and no handles are left.
 */
class Tpm2ToolsCrossCheckTest {
  private static final String STORAGE_KEY_ATTRIBUTES =
      "fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda|restricted|decrypt";

  @TempDir Path state;
  private Swtpm tpm;
  private Tpm2Tools tools;

  @BeforeEach
  void startTpm() throws Exception {
    tpm = Swtpm.start(Files.createDirectory(state.resolve("tpm")));
    tools = new Tpm2Tools(tpm.tcti(), Files.createDirectory(state.resolve("work")));
  }

  @AfterEach
  void stopTpm() throws Exception {
    if (tpm != null) {
      tpm.close();
    }
  }

  @Test
  void afterSealingAndUnsealingTpm2GetcapListsNoTransientHandleOrSession() throws Exception {
    TpmKeySealer sealer = pcrSealer("0,7");
    for (int i = 0; i < 10; i++) {
      byte[] key = randomKey(32);
      assertThat(sealer.unseal(sealer.seal(key))).isEqualTo(key);
    }

    assertThat(tools.run("getcap", "handles-transient").trim()).isEmpty();
    assertThat(tools.run("getcap", "handles-loaded-session").trim()).isEmpty();
  }

  @Test
  void tpm2ToolsRecreateTheStorageKeyAndUnsealAPcrBoundBlob() throws Exception {
    byte[] key = randomKey(32);
    SealedBlob blob = SealedBlob.parse(pcrSealer("0,7").seal(key));
    Files.write(state.resolve("work/seal.pub"), blob.object().publicArea());
    Files.write(state.resolve("work/seal.priv"), blob.object().privateArea());

    createPrimary();
    String primary = tools.run("readpublic", "-c", "primary.ctx");
    tools.run("load", "-C", "primary.ctx", "-u", "seal.pub", "-r", "seal.priv", "-c", "seal.ctx");
    tools.run("unseal", "-c", "seal.ctx", "-p", "pcr:sha256:0,7", "-o", "unsealed.bin");

    assertThat(primary).contains("name: " + HexFormat.of().formatHex(blob.storageKeyName()));
    assertThat(Files.readAllBytes(state.resolve("work/unsealed.bin"))).isEqualTo(key);
  }

  @Test
  void theSealerUnsealsAnObjectSealedByTpm2Tools() throws Exception {
    byte[] key = randomKey(32);
    Files.write(state.resolve("work/secret.bin"), key);
    TpmKeySealer sealer = pcrSealer("");
    byte[] storageKeyName = SealedBlob.parse(sealer.seal(randomKey(16))).storageKeyName();

    createPrimary();
    tools.run(
        "create", "-C", "primary.ctx", "-i", "secret.bin", "-u", "seal.pub", "-r", "seal.priv");
    TpmConnection.SealedObject object =
        new TpmConnection.SealedObject(
            Files.readAllBytes(state.resolve("work/seal.pub")),
            Files.readAllBytes(state.resolve("work/seal.priv")));

    byte[] blob = new SealedBlob(storageKeyName, PcrSelection.NONE, object).toBytes();
    assertThat(sealer.unseal(blob)).isEqualTo(key);
  }

  @Test
  void givenAPcrExtendedByTpm2Tools_whenUnsealed_thenThePolicyRefusesIt() throws Exception {
    TpmKeySealer sealer = pcrSealer("7");
    byte[] blob = sealer.seal(randomKey(32));

    tools.run("pcrextend", "7:sha256=" + "ab".repeat(32));

    assertThatThrownBy(() -> sealer.unseal(blob))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the PCR values changed since the key was sealed");
  }

  @Test
  void givenTheSha256BankIsNotAllocated_whenActivatedWithPcrs_thenActivationSaysSo()
      throws Exception {
    tools.run("pcrallocate", "sha1:all+sha256:none");
    tpm.close();
    tpm = Swtpm.start(state.resolve("tpm"));

    assertThatThrownBy(() -> pcrSealer("0,7"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has no SHA-256 PCR 0,7")
        .hasMessageContaining("tpm2_pcrallocate");
    byte[] key = randomKey(32);
    TpmKeySealer unbound = pcrSealer("");
    assertThat(unbound.unseal(unbound.seal(key))).isEqualTo(key);
  }

  private TpmKeySealer pcrSealer(String pcrs) {
    return new TpmKeySealer(
        new SealerOptions(tpm.tcti(), PcrSelection.parse(pcrs)), Tss2Libraries.load());
  }

  private String createPrimary() throws Exception {
    return tools.run(
        "createprimary",
        "-C",
        "o",
        "-g",
        "sha256",
        "-G",
        "ecc256:aes128cfb",
        "-a",
        STORAGE_KEY_ATTRIBUTES,
        "-c",
        "primary.ctx");
  }
}
