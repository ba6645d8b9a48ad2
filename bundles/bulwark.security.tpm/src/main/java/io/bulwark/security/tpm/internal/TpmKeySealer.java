package io.bulwark.security.tpm.internal;

import io.bulwark.api.security.KeySealer;
import java.lang.System.Logger.Level;
import java.security.MessageDigest;
import java.util.Objects;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.metatype.annotations.Designate;

/**
 * Seals the data-encryption key to this machine's TPM 2.0 through tpm2-tss ESAPI. The key is sealed
 * in a keyed-hash data object under an ECC P-256 storage key that the TPM re-derives from its owner
 * seed at every call (nothing persistent is stored in the TPM), optionally with a PolicyPCR over
 * the configured SHA-256 PCRs; the secret crosses the bus encrypted by a session salted with the
 * storage key. Each call opens its own TPM connection and flushes every transient object and
 * session it created. Activation fails when the tpm2-tss libraries are missing or the TPM cannot be
 * reached. Thread-safe: calls are serialized.
 */
@Component(
    service = KeySealer.class,
    configurationPid = "io.bulwark.security.tpm",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = TpmKeySealerConfig.class)
public final class TpmKeySealer implements KeySealer {
  private static final System.Logger LOG = System.getLogger(TpmKeySealer.class.getName());

  private final SealerOptions options;
  private final Tss2Libraries tss;
  private final TpmErrors errors;
  private final String description;
  private final Object tpm = new Object();

  /**
   * @throws IllegalArgumentException if a configuration value is invalid (the message names it)
   * @throws IllegalStateException if tpm2-tss is missing or the TPM cannot be used (the message
   *     says what to install or check)
   */
  @Activate
  public TpmKeySealer(TpmKeySealerConfig config) {
    this(SealerOptions.from(config), Tss2Libraries.load());
  }

  TpmKeySealer(SealerOptions options, Tss2Libraries tss) {
    this.options = options;
    this.tss = tss;
    this.errors = new TpmErrors(options.tcti(), tss.responseCodes());
    this.description = describe(probe());
    LOG.log(Level.INFO, "Sealing the data-encryption key to {0}", description);
  }

  @Override
  public byte[] seal(byte[] secret) {
    Objects.requireNonNull(secret, "secret");
    if (secret.length == 0 || secret.length > TpmTemplates.MAX_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "A TPM seals 1 to 128 bytes; the secret has " + secret.length);
    }
    synchronized (tpm) {
      try (TpmConnection connection = TpmConnection.open(tss, errors)) {
        TpmConnection.StorageKey key = connection.createStorageKey();
        try {
          byte[] policy =
              options.pcrs().isEmpty() ? new byte[0] : connection.pcrPolicyDigest(options.pcrs());
          int session = connection.startEncryptedSession(key.handle(), false, true);
          try {
            TpmConnection.SealedObject object =
                connection.create(key.handle(), session, TpmTemplates.sealedObject(policy), secret);
            return new SealedBlob(key.name(), options.pcrs(), object).toBytes();
          } finally {
            connection.flush(session);
          }
        } finally {
          connection.flush(key.handle());
        }
      }
    }
  }

  @Override
  public byte[] unseal(byte[] blob) {
    SealedBlob sealed = SealedBlob.parse(Objects.requireNonNull(blob, "blob"));
    synchronized (tpm) {
      try (TpmConnection connection = TpmConnection.open(tss, errors)) {
        TpmConnection.StorageKey key = connection.createStorageKey();
        try {
          if (!MessageDigest.isEqual(key.name(), sealed.storageKeyName())) {
            throw new IllegalStateException(
                "TPM at "
                    + options.tcti()
                    + " cannot unseal the key: it was sealed by another TPM, or this TPM's owner"
                    + " hierarchy was cleared since (its storage key differs). Restore the key from"
                    + " its recovery copy and seal it again.");
          }
          int object = connection.load(key.handle(), sealed.object());
          try {
            return unsealLoaded(connection, key.handle(), object, sealed.pcrs());
          } finally {
            connection.flush(object);
          }
        } finally {
          connection.flush(key.handle());
        }
      }
    }
  }

  @Override
  public String description() {
    return description;
  }

  private static byte[] unsealLoaded(
      TpmConnection connection, int key, int object, PcrSelection pcrs) {
    int session = connection.startEncryptedSession(key, !pcrs.isEmpty(), false);
    try {
      if (!pcrs.isEmpty()) {
        connection.policyPcr(session, pcrs);
      }
      return connection.unseal(object, session);
    } finally {
      connection.flush(session);
    }
  }

  /** Checks that the TPM answers, has the PCRs and can create the storage key; names it. */
  private String probe() {
    synchronized (tpm) {
      try (TpmConnection connection = TpmConnection.open(tss, errors)) {
        String vendor = TpmCapabilities.vendor(connection);
        PcrSelection missing = missingPcrs(TpmCapabilities.sha256Pcrs(connection));
        if (!missing.isEmpty()) {
          throw new IllegalStateException(
              "TPM at "
                  + options.tcti()
                  + " has no SHA-256 PCR "
                  + missing
                  + ": fix the pcrs setting, or activate the SHA-256 PCR bank in the firmware"
                  + " (tpm2_pcrallocate sha256:all, then reboot)");
        }
        connection.flush(connection.createStorageKey().handle());
        return vendor;
      }
    }
  }

  private PcrSelection missingPcrs(PcrSelection allocated) {
    return new PcrSelection(options.pcrs().mask() & ~allocated.mask());
  }

  private String describe(String vendor) {
    String tpmName = vendor.isEmpty() ? options.tcti() : vendor + " at " + options.tcti();
    String binding =
        options.pcrs().isEmpty() ? "not bound to PCRs" : "PCRs " + options.pcrs() + " (SHA-256)";
    return "TPM 2.0 (" + tpmName + "), " + binding;
  }
}
