package io.bulwark.security.internal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The validated, immutable form of {@link SecretStoreConfig}.
 *
 * @param folder the folder of the secrets, absolute
 * @param developmentMode true if the store may keep its key unsealed when no TPM is available
 */
record SecretStoreOptions(Path folder, boolean developmentMode) {

  SecretStoreOptions {
    folder = folder.toAbsolutePath().normalize();
  }

  /**
   * Validates the configuration.
   *
   * @throws IllegalArgumentException naming the property that is wrong
   */
  static SecretStoreOptions from(SecretStoreConfig config) {
    String folder = config.folder();
    if (folder == null || folder.isBlank()) {
      throw new IllegalArgumentException("folder must be set, e.g. data/secrets");
    }
    try {
      return new SecretStoreOptions(Path.of(folder.strip()), config.developmentMode());
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("folder is not a valid path: '" + folder + "'", e);
    }
  }
}
