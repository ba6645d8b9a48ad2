package io.bulwark.security.internal;

import io.bulwark.api.security.KeySealer;
import io.bulwark.lib.files.AtomicFile;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.stream.Stream;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secret store's 256-bit AES data-encryption key (DEK): generated once by the FIPS module and
 * kept only sealed by a {@link KeySealer} ({@value #SEALED_FILE}), or, in the flagged development
 * mode without a TPM, in a file readable by the owner only ({@value #DEVELOPMENT_FILE}). When a
 * sealer appears for a store that started in development mode, the key is sealed and the clear copy
 * removed. Used by {@link EncryptedSecretStore}.
 */
final class DataEncryptionKey {
  /** The file of the sealed key. */
  static final String SEALED_FILE = "data-key.sealed";

  /** The file of the unsealed key in development mode. */
  static final String DEVELOPMENT_FILE = "data-key.development";

  private static final Logger LOG = System.getLogger(DataEncryptionKey.class.getName());
  private static final int KEY_BYTES = 32;

  private final byte[] key;
  private final SecretKey secretKey;
  private final boolean sealed;

  private DataEncryptionKey(byte[] key, boolean sealed) {
    this.key = key;
    this.secretKey = new SecretKeySpec(key, "AES");
    this.sealed = sealed;
  }

  /**
   * Opens the key of the store in {@code folder}, creating it on first start.
   *
   * @param sealer the TPM sealer, or null if none is available
   * @param developmentMode true if the key may be kept unsealed when {@code sealer} is null
   * @param secretCount how many secrets the folder holds (a new key could not read them)
   * @throws IllegalStateException if there is no sealer and no development mode, if the sealer
   *     refuses, or if the key files are damaged or missing while secrets exist
   */
  static DataEncryptionKey open(
      Path folder,
      KeySealer sealer,
      boolean developmentMode,
      long secretCount,
      SecureRandom random) {
    Path sealedFile = folder.resolve(SEALED_FILE);
    Path developmentFile = folder.resolve(DEVELOPMENT_FILE);
    if (sealer == null && !developmentMode) {
      throw new IllegalStateException(
          "the secret store needs a TPM to seal its data-encryption key, and no KeySealer is"
              + " available: start the TPM bundle (check that the TPM is present and reachable),"
              + " or, on a development machine only, set developmentMode=true in the"
              + " configuration io.bulwark.security.secrets");
    }
    if (Files.exists(sealedFile)) {
      if (sealer == null) {
        throw new IllegalStateException(
            "the data-encryption key in "
                + sealedFile
                + " is sealed to a TPM, but no KeySealer is available: start the TPM bundle; the"
                + " secrets cannot be read without it");
      }
      return new DataEncryptionKey(unseal(sealer, sealedFile), true);
    }
    if (Files.exists(developmentFile)) {
      byte[] key = checked(read(developmentFile), developmentFile);
      if (sealer == null) {
        return new DataEncryptionKey(key, false);
      }
      writeSealed(sealer, key, sealedFile);
      delete(developmentFile);
      LOG.log(
          Level.WARNING,
          "The development data-encryption key of {0} is now sealed by {1}; its clear copy {2}"
              + " was removed",
          folder,
          sealer.description(),
          developmentFile);
      return new DataEncryptionKey(key, true);
    }
    if (secretCount > 0) {
      throw new IllegalStateException(
          "the secret store "
              + folder
              + " holds "
              + secretCount
              + " secrets but no data-encryption key ("
              + SEALED_FILE
              + "): restore the key file from backup; a new key could not read those secrets");
    }
    byte[] key = generate(random);
    if (sealer != null) {
      writeSealed(sealer, key, sealedFile);
      LOG.log(
          Level.INFO,
          "Created the data-encryption key of the secret store {0}, sealed by {1}",
          folder,
          sealer.description());
      return new DataEncryptionKey(key, true);
    }
    write(developmentFile, key);
    return new DataEncryptionKey(key, false);
  }

  /** Returns the key for AES; valid until {@link #destroy()}. */
  SecretKey secretKey() {
    return secretKey;
  }

  /** Returns true if the key is stored sealed by a TPM. */
  boolean sealed() {
    return sealed;
  }

  /** Clears this object's copy of the key (the JCA key object keeps its own until collected). */
  void destroy() {
    Arrays.fill(key, (byte) 0);
  }

  private static byte[] generate(SecureRandom random) {
    try {
      KeyGenerator generator = KeyGenerator.getInstance("AES", "BCFIPS");
      generator.init(KEY_BYTES * 8, random);
      return generator.generateKey().getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "the FIPS module could not generate a data-encryption key: " + e.getMessage(), e);
    }
  }

  private static byte[] unseal(KeySealer sealer, Path sealedFile) {
    byte[] blob = read(sealedFile);
    byte[] key;
    try {
      key = sealer.unseal(blob);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "the data-encryption key in "
              + sealedFile
              + " could not be unsealed by "
              + sealer.description()
              + ": "
              + e.getMessage()
              + "; the secrets cannot be read on this machine or with this TPM state",
          e);
    }
    return checked(key, sealedFile);
  }

  private static void writeSealed(KeySealer sealer, byte[] key, Path sealedFile) {
    byte[] blob;
    try {
      blob = sealer.seal(key);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "the data-encryption key could not be sealed by "
              + sealer.description()
              + ": "
              + e.getMessage(),
          e);
    }
    write(sealedFile, blob);
  }

  private static byte[] checked(byte[] key, Path file) {
    if (key == null || key.length != KEY_BYTES) {
      int length = key == null ? 0 : key.length;
      if (key != null) {
        Arrays.fill(key, (byte) 0);
      }
      throw new IllegalStateException(
          "the data-encryption key from "
              + file
              + " has "
              + length
              + " bytes instead of "
              + KEY_BYTES
              + ": the file is damaged; restore it from backup");
    }
    return key;
  }

  /** Returns how many files in {@code folder} end with {@code suffix}. */
  static long countFiles(Path folder, String suffix) {
    if (!Files.isDirectory(folder)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().endsWith(suffix)).count();
    } catch (IOException e) {
      throw new IllegalStateException("cannot list the secret store " + folder + ": " + e, e);
    }
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot read the data-encryption key file " + file + ": " + e, e);
    }
  }

  private static void write(Path file, byte[] content) {
    try {
      AtomicFile.write(file, content);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot write the data-encryption key file " + file + ": " + e, e);
    }
  }

  private static void delete(Path file) {
    try {
      AtomicFile.delete(file);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot remove the clear development key " + file + ": " + e + "; remove it by hand", e);
    }
  }
}
