package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.lib.files.AtomicFile;
import io.bulwark.testing.TypedConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets survive a restart encrypted, never appear in the clear on disk, and a damaged file or a
 * wrong key gives an error naming the secret; the store refuses to run without a TPM unless the
 * development flag is set, and then keeps its key owner-only.
 */
class EncryptedSecretStoreTest {
  private static final byte[] BMC_PASSWORD =
      "Rack7-BMC-admin-pass-8c1f".getBytes(StandardCharsets.UTF_8);

  @TempDir Path folder;

  private EncryptedSecretStore developmentStore() {
    return new EncryptedSecretStore(Fips.module(), null, new SecretStoreOptions(folder, true));
  }

  private EncryptedSecretStore sealedStore(XorKeySealer sealer) {
    return new EncryptedSecretStore(Fips.module(), sealer, new SecretStoreOptions(folder, false));
  }

  @Test
  void aSecretSurvivesANewInstanceOfTheStore() {
    developmentStore().put("bmc/node-017/password", BMC_PASSWORD);

    EncryptedSecretStore reopened = developmentStore();

    assertThat(reopened.get("bmc/node-017/password")).hasValue(BMC_PASSWORD);
    assertThat(reopened.get("bmc/node-018/password")).isEmpty();
  }

  @Test
  void putReplacesAndRemoveForgets() {
    EncryptedSecretStore store = developmentStore();
    store.put("audit.hmac", new byte[] {1, 2, 3});
    store.put("audit.hmac", new byte[] {4, 5});

    assertThat(store.get("audit.hmac")).hasValue(new byte[] {4, 5});
    store.remove("audit.hmac");
    assertThat(store.get("audit.hmac")).isEmpty();
    store.remove("audit.hmac");
  }

  @Test
  void withoutKeySealerAndWithoutDevelopmentModeTheStoreRefusesToStart() {
    assertThatThrownBy(
            () ->
                new EncryptedSecretStore(
                    Fips.module(),
                    null,
                    null,
                    TypedConfig.of(
                        SecretStoreConfig.class,
                        Map.of("folder", folder.resolve("refused").toString()))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("needs a TPM")
        .hasMessageContaining("developmentMode=true");
    assertThat(folder.resolve("refused")).doesNotExist();
  }

  @Test
  void developmentModeKeepsTheKeyOwnerOnlyAndSaysSo() throws IOException {
    EncryptedSecretStore store = developmentStore();
    store.put("api.pepper", BMC_PASSWORD);

    assertThat(store.sealedToTpm()).isFalse();
    Path keyFile = folder.resolve(DataEncryptionKey.DEVELOPMENT_FILE);
    assertThat(Files.size(keyFile)).isEqualTo(32);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keyFile)))
        .isEqualTo("rw-------");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(store.fileOf("api.pepper"))))
        .isEqualTo("rw-------");
  }

  @Test
  void aFreshFolderIsCreatedOwnerOnly() throws IOException {
    Path nested = folder.resolve("data/secrets");
    new EncryptedSecretStore(Fips.module(), null, new SecretStoreOptions(nested, true));

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(nested)))
        .isEqualTo("rwx------");
  }

  @Test
  void aKeySealerIsUsedWhenPresentAndTheKeyIsNeverInTheClear() throws IOException {
    XorKeySealer sealer = new XorKeySealer();
    EncryptedSecretStore store = sealedStore(sealer);
    store.put("bmc/node-001/password", BMC_PASSWORD);

    EncryptedSecretStore reopened = sealedStore(sealer);

    assertThat(store.sealedToTpm()).isTrue();
    assertThat(sealer.seals).hasValue(1);
    assertThat(sealer.unseals).hasValue(1);
    assertThat(reopened.get("bmc/node-001/password")).hasValue(BMC_PASSWORD);
    assertThat(folder.resolve(DataEncryptionKey.DEVELOPMENT_FILE)).doesNotExist();
    assertThat(Files.readAllBytes(folder.resolve(DataEncryptionKey.SEALED_FILE))).hasSize(44);
  }

  @Test
  void aSealedKeyWithoutItsSealerIsRefusedEvenInDevelopmentMode() {
    sealedStore(new XorKeySealer()).put("x", BMC_PASSWORD);

    assertThatThrownBy(this::developmentStore)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is sealed to a TPM, but no KeySealer is available");
  }

  @Test
  void anotherTpmCannotUnsealTheKey() {
    sealedStore(new XorKeySealer()).put("x", BMC_PASSWORD);

    assertThatThrownBy(() -> sealedStore(new XorKeySealer()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("could not be unsealed by XOR test double")
        .hasMessageContaining("sealed by another (test) TPM");
  }

  @Test
  void aDevelopmentKeyIsSealedWhenASealerArrives() {
    developmentStore().put("bmc/node-002/password", BMC_PASSWORD);
    XorKeySealer sealer = new XorKeySealer();

    EncryptedSecretStore sealed = sealedStore(sealer);

    assertThat(sealed.sealedToTpm()).isTrue();
    assertThat(sealed.get("bmc/node-002/password")).hasValue(BMC_PASSWORD);
    assertThat(folder.resolve(DataEncryptionKey.DEVELOPMENT_FILE)).doesNotExist();
    assertThat(folder.resolve(DataEncryptionKey.SEALED_FILE)).exists();
  }

  @Test
  void aTamperedSecretGivesAClearErrorNamingTheSecret() throws IOException {
    EncryptedSecretStore store = developmentStore();
    store.put("bmc/node-003/password", BMC_PASSWORD);
    Path file = store.fileOf("bmc/node-003/password");
    byte[] content = Files.readAllBytes(file);
    content[content.length - 20] ^= 0x01;
    Files.write(file, content);

    assertThatThrownBy(() -> store.get("bmc/node-003/password"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the secret 'bmc/node-003/password' cannot be decrypted")
        .hasMessageContaining("altered")
        .hasMessageNotContaining(new String(BMC_PASSWORD, StandardCharsets.UTF_8));
  }

  @Test
  void aTruncatedSecretFileIsCalledDamaged() throws IOException {
    EncryptedSecretStore store = developmentStore();
    store.put("short", BMC_PASSWORD);
    Files.write(store.fileOf("short"), new byte[] {'B', 'W'});

    assertThatThrownBy(() -> store.get("short"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the secret 'short' is damaged");
  }

  @Test
  void aSecretRenamedToAnotherNameDoesNotDecrypt() throws IOException {
    EncryptedSecretStore store = developmentStore();
    store.put("user.a", BMC_PASSWORD);
    Files.copy(store.fileOf("user.a"), store.fileOf("user.b"));

    assertThatThrownBy(() -> store.get("user.b"))
        .hasMessageContaining("the secret 'user.b' cannot be decrypted");
  }

  @Test
  void aWrongDataEncryptionKeyGivesAClearError(@TempDir Path other) throws IOException {
    developmentStore().put("bmc/node-004/password", BMC_PASSWORD);
    Path keyFile = folder.resolve(DataEncryptionKey.DEVELOPMENT_FILE);
    byte[] wrongKey = new byte[32];
    Fips.module().random().nextBytes(wrongKey);
    Files.write(keyFile, wrongKey);

    EncryptedSecretStore withWrongKey = developmentStore();

    assertThatThrownBy(() -> withWrongKey.get("bmc/node-004/password"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'bmc/node-004/password'")
        .hasMessageContaining("another data-encryption key");
  }

  @Test
  void secretsWithoutTheirKeyRefuseToStartRatherThanMakeANewKey() throws IOException {
    developmentStore().put("x", BMC_PASSWORD);
    Files.delete(folder.resolve(DataEncryptionKey.DEVELOPMENT_FILE));

    assertThatThrownBy(this::developmentStore)
        .hasMessageContaining("holds 1 secrets but no data-encryption key");
  }

  @Test
  void noSecretValueAppearsInTheClearInAnyFileOfTheFolder() throws IOException {
    EncryptedSecretStore store = developmentStore();
    List<byte[]> values =
        List.of(
            BMC_PASSWORD,
            "ipmi-operator-Z9q!".getBytes(StandardCharsets.UTF_8),
            "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8));
    for (int i = 0; i < values.size(); i++) {
      store.put("secret-" + i, values.get(i));
    }

    List<Path> files;
    try (Stream<Path> listing = Files.walk(folder)) {
      files = listing.filter(Files::isRegularFile).collect(Collectors.toList());
    }
    assertThat(files).hasSize(values.size() + 1);
    for (Path file : files) {
      String content = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      for (byte[] value : values) {
        String clear = new String(value, StandardCharsets.ISO_8859_1);
        assertThat(content).as("%s in clear", file).doesNotContain(clear);
        assertThat(content)
            .as("%s in Base64", file)
            .doesNotContain(Base64.getEncoder().encodeToString(value));
        assertThat(content).as("%s prefix", file).doesNotContain(clear.substring(0, 8));
      }
    }
  }

  @Test
  void namesAreCheckedAndNeverEscapeTheFolder() {
    EncryptedSecretStore store = developmentStore();

    assertThat(store.fileOf("../../etc/passwd").getParent()).isEqualTo(folder);
    assertThatThrownBy(() -> store.put("has space", BMC_PASSWORD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("printable ASCII");
    assertThatThrownBy(() -> store.get("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> store.get("x".repeat(129)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void leftoversOfAnInterruptedWriteAreRemovedAtStart() throws IOException {
    developmentStore().put("x", BMC_PASSWORD);
    Path leftover = folder.resolve(".eA.secret123" + AtomicFile.TEMPORARY_SUFFIX);
    Files.write(leftover, new byte[] {1});

    EncryptedSecretStore reopened = developmentStore();

    assertThat(leftover).doesNotExist();
    assertThat(reopened.get("x")).hasValue(BMC_PASSWORD);
  }
}
