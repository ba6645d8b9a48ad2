package io.bulwark.security.internal;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The validated, immutable form of {@link TlsConfig}.
 *
 * @param keystore the BCFKS keystore file, absolute
 * @param hostName the host name or IP address a generated certificate is made for
 */
record TlsOptions(Path keystore, String hostName) {
  private static final Pattern HOST =
      Pattern.compile(
          "[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*|[0-9A-Fa-f:.]+");

  TlsOptions {
    keystore = keystore.toAbsolutePath().normalize();
    if (!HOST.matcher(hostName).matches() || hostName.length() > 253) {
      throw new IllegalArgumentException(
          "hostName is not a host name or IP address: '" + hostName + "'");
    }
  }

  /**
   * Validates the configuration; an empty host name becomes this machine's name.
   *
   * @throws IllegalArgumentException naming the property that is wrong
   */
  static TlsOptions from(TlsConfig config) {
    String keystore = config.keystore();
    if (keystore == null || keystore.isBlank()) {
      throw new IllegalArgumentException("keystore must be set, e.g. data/tls/admin.bcfks");
    }
    String hostName = config.hostName() == null ? "" : config.hostName().strip();
    if (hostName.isEmpty()) {
      hostName = SelfSignedCertificate.localHostName();
    }
    try {
      return new TlsOptions(Path.of(keystore.strip()), hostName);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("keystore is not a valid path: '" + keystore + "'", e);
    }
  }
}
