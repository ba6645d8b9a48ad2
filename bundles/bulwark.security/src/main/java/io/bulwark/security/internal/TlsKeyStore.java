package io.bulwark.security.internal;

import io.bulwark.lib.files.AtomicFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * The admin identity on disk: a BCFKS keystore (the FIPS module's keystore format) holding one
 * private key entry, {@value #ALIAS}, protected by a password kept in the secret store. Written
 * atomically and readable by the owner only. Used by {@link AdminTlsIdentity}.
 */
final class TlsKeyStore {
  /** The alias of the admin identity. */
  static final String ALIAS = "admin";

  private TlsKeyStore() {}

  /**
   * Returns a keystore in memory that holds {@code identity} under {@value #ALIAS}.
   *
   * @throws IllegalStateException if the FIPS module refuses the entry
   */
  static KeyStore inMemory(ServerIdentity identity, char[] password) {
    try {
      KeyStore store = KeyStore.getInstance("BCFKS", "BCFIPS");
      store.load(null, null);
      store.setKeyEntry(
          ALIAS, identity.privateKey(), password, identity.chain().toArray(X509Certificate[]::new));
      return store;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "the FIPS module cannot hold the admin TLS key in a BCFKS keystore: " + e.getMessage(),
          e);
    }
  }

  /**
   * Writes {@code identity} to {@code file}, replacing it atomically.
   *
   * @throws IllegalStateException if it cannot be written (the old file is then unchanged)
   */
  static void save(Path file, ServerIdentity identity, char[] password) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      inMemory(identity, password).store(bytes, password);
      AtomicFile.write(file, bytes.toByteArray());
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(
          "cannot write the admin TLS keystore " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads the identity from {@code file}.
   *
   * @throws IllegalStateException if the file cannot be read, the password does not open it, or it
   *     holds no {@value #ALIAS} key entry
   */
  static ServerIdentity load(Path file, char[] password) {
    KeyStore store;
    try {
      byte[] content = Files.readAllBytes(file);
      store = KeyStore.getInstance("BCFKS", "BCFIPS");
      store.load(new ByteArrayInputStream(content), password);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException(
          "cannot open the admin TLS keystore "
              + file
              + " ("
              + e.getMessage()
              + "): it is damaged or its password in the secret store does not match; move it"
              + " away to generate a new self-signed certificate, or restore it from backup",
          e);
    }
    try {
      Key key = store.getKey(ALIAS, password);
      Certificate[] chain = store.getCertificateChain(ALIAS);
      if (!(key instanceof PrivateKey) || chain == null || chain.length == 0) {
        throw new IllegalStateException(
            "the admin TLS keystore " + file + " holds no private key entry '" + ALIAS + "'");
      }
      List<X509Certificate> certificates = new ArrayList<>();
      for (Certificate certificate : chain) {
        certificates.add((X509Certificate) certificate);
      }
      return new ServerIdentity((PrivateKey) key, certificates);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "cannot read the key entry '"
              + ALIAS
              + "' of the admin TLS keystore "
              + file
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
