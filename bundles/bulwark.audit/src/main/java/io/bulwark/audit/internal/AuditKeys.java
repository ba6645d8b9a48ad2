package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.security.SecretStore;
import java.lang.System.Logger.Level;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Mac;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;

/**
 * The audit log's keys, kept in the secret store: the 256-bit HMAC key that seals each record
 * ({@value #HMAC_NAME}) and the ECDSA P-384 key pair that signs exports ({@value #SIGNING_NAME},
 * the private key as PKCS#8; the public key is read from it). Both are made with the FIPS DRBG on
 * first use. A missing HMAC key is never replaced while the log holds records sealed with it.
 * Thread-safe.
 */
final class AuditKeys {
  static final String HMAC_NAME = "audit.hmac";
  static final String SIGNING_NAME = "audit.signing";
  static final int HMAC_KEY_BYTES = 32;
  private static final System.Logger LOG = System.getLogger(AuditKeys.class.getName());

  private final SecretStore secrets;
  private byte[] hmacKey;
  private KeyPair signing;

  AuditKeys(SecretStore secrets) {
    this.secrets = secrets;
  }

  /**
   * Returns a MAC keyed with the audit key, making the key when the log is still empty.
   *
   * @throws AuditUnavailableException if the key cannot be read, or is missing from a log that
   *     holds records
   */
  synchronized Mac hmacForAppend(boolean logEmpty, String log) {
    if (hmacKey == null) {
      Optional<byte[]> stored = read(HMAC_NAME, "HMAC key");
      if (stored.isPresent()) {
        hmacKey = checkedHmacKey(stored.get());
      } else if (!logEmpty) {
        throw missingKey(log);
      } else {
        byte[] key = new byte[HMAC_KEY_BYTES];
        FipsCrypto.drbg().nextBytes(key);
        // In use before it is stored: storing it is itself audited, and that record must be sealed
        // with this key, not make another.
        hmacKey = key;
        try {
          write(HMAC_NAME, key, "HMAC key");
        } catch (RuntimeException e) {
          hmacKey = null;
          throw e;
        }
        LOG.log(
            Level.INFO, "Made the audit HMAC key (256 bits, FIPS DRBG) for the new log {0}", log);
      }
    }
    return FipsCrypto.hmac(hmacKey);
  }

  /**
   * Returns a MAC keyed with the existing audit key, to check records.
   *
   * @throws AuditUnavailableException if the key cannot be read or does not exist
   */
  synchronized Mac hmacForCheck(String log) {
    if (hmacKey == null) {
      hmacKey = checkedHmacKey(read(HMAC_NAME, "HMAC key").orElseThrow(() -> missingKey(log)));
    }
    return FipsCrypto.hmac(hmacKey);
  }

  /**
   * Returns the export signing key pair, making it on first use.
   *
   * @throws AuditUnavailableException if the key cannot be read, made or stored
   */
  synchronized KeyPair signingKeys() {
    if (signing == null) {
      Optional<byte[]> stored = read(SIGNING_NAME, "signing key");
      signing = stored.isPresent() ? decode(stored.get()) : generate();
    }
    return signing;
  }

  private KeyPair generate() {
    try {
      KeyPairGenerator generator = FipsCrypto.ecKeyPairs();
      generator.initialize(new ECGenParameterSpec("secp384r1"), FipsCrypto.drbg());
      KeyPair pair = generator.generateKeyPair();
      byte[] pkcs8 = pair.getPrivate().getEncoded();
      write(SIGNING_NAME, pkcs8, "signing key");
      Arrays.fill(pkcs8, (byte) 0);
      LOG.log(Level.INFO, "Made the audit export signing key (ECDSA P-384, FIPS DRBG)");
      return pair;
    } catch (GeneralSecurityException e) {
      throw new AuditUnavailableException(
          "cannot make the audit export signing key (ECDSA P-384): " + e.getMessage(), e);
    }
  }

  private static KeyPair decode(byte[] pkcs8) {
    try {
      PrivateKey privateKey = FipsCrypto.ecKeys().generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
      PrivateKeyInfo info = PrivateKeyInfo.getInstance(pkcs8);
      ECPrivateKey ec = ECPrivateKey.getInstance(info.parsePrivateKey());
      if (ec.getPublicKey() == null) {
        throw new GeneralSecurityException("the stored private key carries no public key");
      }
      byte[] spki =
          new SubjectPublicKeyInfo(info.getPrivateKeyAlgorithm(), ec.getPublicKey().getBytes())
              .getEncoded();
      PublicKey publicKey = FipsCrypto.ecKeys().generatePublic(new X509EncodedKeySpec(spki));
      return new KeyPair(publicKey, privateKey);
    } catch (GeneralSecurityException | java.io.IOException | IllegalArgumentException e) {
      throw new AuditUnavailableException(
          "the audit signing key '"
              + SIGNING_NAME
              + "' in the secret store cannot be read ("
              + e.getMessage()
              + "): restore the secret store from its backup, or remove that entry to make a new"
              + " key (earlier exports then verify only with the old public key)",
          e);
    } finally {
      Arrays.fill(pkcs8, (byte) 0);
    }
  }

  private static byte[] checkedHmacKey(byte[] key) {
    if (key.length != HMAC_KEY_BYTES) {
      int length = key.length;
      Arrays.fill(key, (byte) 0);
      throw new AuditUnavailableException(
          "the audit HMAC key '"
              + HMAC_NAME
              + "' in the secret store has "
              + length
              + " bytes, not "
              + HMAC_KEY_BYTES
              + ": restore the secret store from its backup",
          null);
    }
    return key;
  }

  private static AuditUnavailableException missingKey(String log) {
    return new AuditUnavailableException(
        "the audit HMAC key '"
            + HMAC_NAME
            + "' is missing from the secret store, but the log "
            + log
            + " holds records sealed with it: restore the secret store from its backup; or export and"
            + " archive the log and move it aside to start a new one",
        null);
  }

  private Optional<byte[]> read(String name, String what) {
    try {
      return secrets.get(name);
    } catch (RuntimeException e) {
      throw new AuditUnavailableException(
          "the audit "
              + what
              + " '"
              + name
              + "' is unavailable: the secret store refused ("
              + e.getMessage()
              + "); check the security bundle and the TPM, then retry",
          e);
    }
  }

  private void write(String name, byte[] value, String what) {
    try {
      secrets.put(name, value);
    } catch (RuntimeException e) {
      throw new AuditUnavailableException(
          "cannot keep the new audit "
              + what
              + " '"
              + name
              + "': the secret store refused ("
              + e.getMessage()
              + "); check the security bundle and the TPM, then retry",
          e);
    }
  }
}
