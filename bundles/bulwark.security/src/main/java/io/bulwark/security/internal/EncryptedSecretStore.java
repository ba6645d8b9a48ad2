package io.bulwark.security.internal;

import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.CryptoModule;
import io.bulwark.api.security.KeySealer;
import io.bulwark.api.security.SecretStore;
import io.bulwark.lib.files.AtomicFile;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Keeps secrets encrypted at rest: one file per secret (AES-256-GCM, see {@link SecretEnvelope}),
 * written atomically, under a data-encryption key sealed by the TPM's {@link KeySealer}. Without a
 * sealer it runs only in the configured development mode, with the key in an owner-only file and a
 * loud warning at each start. Secret values never reach the log or an exception message.
 */
@Component(
    service = {SecretStore.class, EncryptedSecretStore.class},
    immediate = true,
    configurationPid = EncryptedSecretStore.PID,
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = SecretStoreConfig.class)
public final class EncryptedSecretStore implements SecretStore {
  /** The configuration PID. */
  public static final String PID = "io.bulwark.security.secrets";

  /** The suffix of secret files. */
  static final String SECRET_SUFFIX = ".secret";

  private static final Logger LOG = System.getLogger(EncryptedSecretStore.class.getName());
  private static final int LONGEST_NAME = 128;
  private static final Base64.Encoder FILE_NAMES = Base64.getUrlEncoder().withoutPadding();

  private final Path folder;
  private final SecureRandom random;
  private final DataEncryptionKey key;
  private final SecretAccessTrail trail;
  private final String sealedBy;
  private final boolean developmentMode;

  /**
   * Opens the store, creating its folder and key on first start.
   *
   * @param sealer the TPM sealer, or null when none is registered (then only development mode)
   * @throws IllegalStateException if there is neither a sealer nor development mode, or the key
   *     cannot be opened (the message says why and what to do)
   */
  @Activate
  public EncryptedSecretStore(
      @Reference CryptoModule crypto,
      @Reference(
              cardinality = ReferenceCardinality.OPTIONAL,
              policyOption = ReferencePolicyOption.GREEDY)
          KeySealer sealer,
      BundleContext context,
      SecretStoreConfig config) {
    this(crypto, sealer, SecretStoreOptions.from(config), context);
  }

  EncryptedSecretStore(CryptoModule crypto, KeySealer sealer, SecretStoreOptions options) {
    this(crypto, sealer, options, null);
  }

  private EncryptedSecretStore(
      CryptoModule crypto, KeySealer sealer, SecretStoreOptions options, BundleContext context) {
    this.trail = new SecretAccessTrail(context);
    this.folder = options.folder();
    this.developmentMode = options.developmentMode();
    this.random = crypto.random();
    this.key =
        DataEncryptionKey.open(
            folder,
            sealer,
            options.developmentMode(),
            DataEncryptionKey.countFiles(folder, SECRET_SUFFIX),
            random);
    try {
      AtomicFile.createFolder(folder);
      removeInterruptedWrites();
    } catch (IOException e) {
      key.destroy();
      throw new IllegalStateException(
          "cannot prepare the secret store folder " + folder + ": " + e, e);
    }
    this.sealedBy = key.sealed() ? sealer.description() : "";
    if (key.sealed()) {
      LOG.log(
          Level.INFO,
          "Secret store {0} is open; its data-encryption key is sealed by {1}",
          folder,
          sealer.description());
    } else {
      LOG.log(
          Level.WARNING,
          "DEVELOPMENT MODE: secrets are not sealed to a TPM. The data-encryption key of {0} is in"
              + " the clear in {1} (readable by the owner only). Never run a production appliance"
              + " like this: start the TPM bundle and set developmentMode=false.",
          folder,
          folder.resolve(DataEncryptionKey.DEVELOPMENT_FILE));
    }
  }

  /**
   * How the store keeps its key, for the compliance check.
   *
   * @param sealedBy the sealer's description, or empty when the key is not sealed
   * @param clearKeyFile whether a clear copy of the key is on disk
   * @param secrets how many secrets the store holds
   */
  record Posture(
      Path folder, String sealedBy, boolean clearKeyFile, boolean developmentMode, long secrets) {}

  /** Returns how the store keeps its key now. */
  Posture posture() {
    return new Posture(
        folder,
        sealedBy,
        Files.exists(folder.resolve(DataEncryptionKey.DEVELOPMENT_FILE)),
        developmentMode,
        DataEncryptionKey.countFiles(folder, SECRET_SUFFIX));
  }

  /**
   * Records secret accesses in the audit log from now on (and those made before it came). Bound by
   * reference and fetched on the trail's own thread: the audit log keeps its keys in this store, so
   * fetching it while either is being activated would be a cycle.
   */
  @Reference(
      service = AuditLog.class,
      cardinality = ReferenceCardinality.OPTIONAL,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY)
  void bindAuditLog(ServiceReference<AuditLog> reference) {
    trail.attachLater(reference);
  }

  void unbindAuditLog(ServiceReference<AuditLog> reference) {
    trail.detach(reference);
  }

  /** Records secret accesses in {@code audit} from now on; for tests and tools without OSGi. */
  void attachAuditLog(AuditLog audit) {
    trail.attach(audit, null);
  }

  @Override
  public void put(String name, byte[] value) {
    Path file = fileOf(name);
    Objects.requireNonNull(value, "value");
    // Recorded before the store's lock is taken: the audit log may read its own key from here
    // while it appends, and must never wait for a writer that waits for the audit log.
    trail.record("write", name, true, AuditOutcome.SUCCESS);
    byte[] content = SecretEnvelope.seal(name, value, key.secretKey(), random);
    try {
      synchronized (this) {
        AtomicFile.write(file, content);
      }
    } catch (IOException e) {
      trail.record("write", name, true, AuditOutcome.FAILURE);
      throw new IllegalStateException(
          "cannot store the secret '" + name + "' in " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<byte[]> get(String name) {
    Path file = fileOf(name);
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      trail.record("read", name, false, AuditOutcome.SUCCESS);
      return Optional.empty();
    } catch (IOException e) {
      trail.record("read", name, true, AuditOutcome.FAILURE);
      throw new IllegalStateException(
          "cannot read the secret '" + name + "' from " + file + ": " + e.getMessage(), e);
    }
    trail.record("read", name, true, AuditOutcome.SUCCESS);
    return Optional.of(SecretEnvelope.open(name, content, key.secretKey(), file.toString()));
  }

  @Override
  public void remove(String name) {
    Path file = fileOf(name);
    trail.record("remove", name, true, AuditOutcome.SUCCESS);
    try {
      synchronized (this) {
        AtomicFile.delete(file);
      }
    } catch (IOException e) {
      trail.record("remove", name, true, AuditOutcome.FAILURE);
      throw new IllegalStateException(
          "cannot remove the secret '" + name + "' (" + file + "): " + e.getMessage(), e);
    }
  }

  @Override
  public boolean sealedToTpm() {
    return key.sealed();
  }

  /** Clears the key from memory. */
  @Deactivate
  public void close() {
    trail.close();
    key.destroy();
  }

  /** Returns the file of the secret {@code name}: its UTF-8 bytes in URL-safe Base64. */
  Path fileOf(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.length() > LONGEST_NAME) {
      throw new IllegalArgumentException(
          "a secret name has 1 to " + LONGEST_NAME + " characters, not " + name.length());
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c <= ' ' || c > '~') {
        throw new IllegalArgumentException(
            "a secret name has printable ASCII characters without spaces only: '"
                + name.replaceAll("[^!-~]", "?")
                + "'");
      }
    }
    return folder.resolve(
        FILE_NAMES.encodeToString(name.getBytes(StandardCharsets.US_ASCII)) + SECRET_SUFFIX);
  }

  private void removeInterruptedWrites() throws IOException {
    List<Path> leftovers;
    try (Stream<Path> files = Files.list(folder)) {
      leftovers =
          files
              .filter(f -> f.getFileName().toString().endsWith(AtomicFile.TEMPORARY_SUFFIX))
              .collect(Collectors.toList());
    }
    for (Path leftover : leftovers) {
      Files.deleteIfExists(leftover);
      LOG.log(Level.WARNING, "Removed {0}, left by an interrupted write", leftover);
    }
  }
}
