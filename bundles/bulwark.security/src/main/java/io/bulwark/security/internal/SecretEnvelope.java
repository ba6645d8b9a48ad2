package io.bulwark.security.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * The on-disk form of one secret: the marker {@code BWS1}, a 96-bit random IV, and the value
 * encrypted with AES-256-GCM by the FIPS module under the data-encryption key, with the secret's
 * name as additional authenticated data (so a file renamed to another secret does not decrypt).
 * Opening never returns garbage: a damaged file or another key gives an error naming the secret.
 * Used by {@link EncryptedSecretStore}.
 */
final class SecretEnvelope {
  private static final byte[] MARKER = {'B', 'W', 'S', '1'};
  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final String TRANSFORMATION = "AES/GCM/NoPadding";

  private SecretEnvelope() {}

  /** Returns the file content that holds {@code value} encrypted for the secret {@code name}. */
  static byte[] seal(String name, byte[] value, SecretKey key, SecureRandom random) {
    byte[] iv = new byte[IV_BYTES];
    random.nextBytes(iv);
    try {
      Cipher cipher = Cipher.getInstance(TRANSFORMATION, "BCFIPS");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
      cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8));
      byte[] encrypted = cipher.doFinal(value);
      return ByteBuffer.allocate(MARKER.length + IV_BYTES + encrypted.length)
          .put(MARKER)
          .put(iv)
          .put(encrypted)
          .array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "the FIPS module could not encrypt the secret '" + name + "': " + e.getMessage(), e);
    }
  }

  /**
   * Returns the value of the secret {@code name} from its file content.
   *
   * @param source where the content came from, for the error message
   * @throws IllegalStateException if the content is not a secret file, was altered, or was written
   *     under another key; the message names the secret and the file, never the value
   */
  static byte[] open(String name, byte[] content, SecretKey key, String source) {
    if (content.length < MARKER.length + IV_BYTES + TAG_BITS / 8
        || !Arrays.equals(content, 0, MARKER.length, MARKER, 0, MARKER.length)) {
      throw new IllegalStateException(
          "the secret '"
              + name
              + "' is damaged ("
              + source
              + " is truncated or not a Bulwark secret file): put the secret again or restore the"
              + " file from backup");
    }
    try {
      Cipher cipher = Cipher.getInstance(TRANSFORMATION, "BCFIPS");
      cipher.init(
          Cipher.DECRYPT_MODE,
          key,
          new GCMParameterSpec(TAG_BITS, content, MARKER.length, IV_BYTES));
      cipher.updateAAD(name.getBytes(StandardCharsets.UTF_8));
      int offset = MARKER.length + IV_BYTES;
      return cipher.doFinal(content, offset, content.length - offset);
    } catch (AEADBadTagException e) {
      throw new IllegalStateException(
          "the secret '"
              + name
              + "' cannot be decrypted ("
              + source
              + "): the file was altered, or it was written under another data-encryption key;"
              + " put the secret again or restore the file and its key from backup",
          e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(
          "the FIPS module could not decrypt the secret '" + name + "': " + e.getMessage(), e);
    }
  }
}
