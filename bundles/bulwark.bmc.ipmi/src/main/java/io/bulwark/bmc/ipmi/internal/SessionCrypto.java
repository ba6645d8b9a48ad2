package io.bulwark.bmc.ipmi.internal;

import io.bulwark.bmc.ipmi.internal.Wire.MalformedException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys of one RMCP+ session and what they protect (IPMI v2.0 sections 13.28 to 13.29): K1 keys
 * the integrity HMAC that closes every packet, the first 16 bytes of K2 the AES-CBC-128 encryption
 * of every payload. All through JCA with provider {@value #PROVIDER}. Not thread-safe: one
 * connection, one thread at a time.
 */
final class SessionCrypto {
  static final String PROVIDER = "BCFIPS";
  static final int AES_BLOCK = 16;

  private final CipherSuite suite;
  private final Mac integrity;
  private final Cipher aes;
  private final SecretKeySpec aesKey;
  private final SecureRandom random;

  /** Derives nothing: takes K1 and K2 as RAKP produced them (copies; the caller clears its own). */
  SessionCrypto(CipherSuite suite, byte[] k1, byte[] k2, SecureRandom random)
      throws GeneralSecurityException {
    this.suite = suite;
    this.integrity = mac(suite.mac, k1);
    this.aes = Cipher.getInstance("AES/CBC/NoPadding", PROVIDER);
    this.aesKey = new SecretKeySpec(Arrays.copyOf(k2, 16), "AES");
    this.random = random;
  }

  /**
   * Returns an HMAC from {@value #PROVIDER} keyed with {@code key}. In approved-only mode BCFIPS
   * refuses HMAC keys under 112 bits (14 bytes); every key used here is longer: K_UID is the
   * password zero-padded to 20 bytes as IPMI 2.0 defines it (160 bits on the wire whatever the
   * password's strength; the check counts key bytes, not entropy), SIK, K1 and K2 are whole HMAC
   * outputs (20 or 32 bytes).
   */
  static Mac mac(String algorithm, byte[] key) throws GeneralSecurityException {
    Mac m = Mac.getInstance(algorithm, PROVIDER);
    m.init(new SecretKeySpec(key, algorithm));
    return m;
  }

  CipherSuite suite() {
    return suite;
  }

  /** The AuthCode over {@code length} bytes at {@code from}: the HMAC truncated per the suite. */
  byte[] authCode(byte[] packet, int from, int length) {
    integrity.update(packet, from, length);
    return Arrays.copyOf(integrity.doFinal(), suite.integrityLength);
  }

  boolean authCodeMatches(byte[] packet, int from, int length, byte[] code) {
    return MessageDigest.isEqual(authCode(packet, from, length), code);
  }

  /** Returns IV + AES-CBC(payload + confidentiality pad + pad length), IPMI v2.0 table 13-20. */
  byte[] encrypt(byte[] payload) throws GeneralSecurityException {
    byte[] iv = new byte[AES_BLOCK];
    random.nextBytes(iv);
    aes.init(Cipher.ENCRYPT_MODE, aesKey, new IvParameterSpec(iv));
    byte[] sealed = aes.doFinal(pad(payload));
    return Wire.concat(iv, sealed);
  }

  /** Reverses {@link #encrypt}, checking the confidentiality pad. */
  byte[] decrypt(byte[] payload) throws MalformedException, GeneralSecurityException {
    if (payload.length < 2 * AES_BLOCK || payload.length % AES_BLOCK != 0) {
      throw new MalformedException(
          "an encrypted payload of " + payload.length + " bytes is not an IV and whole AES blocks");
    }
    aes.init(Cipher.DECRYPT_MODE, aesKey, new IvParameterSpec(Arrays.copyOf(payload, AES_BLOCK)));
    return unpad(aes.doFinal(payload, AES_BLOCK, payload.length - AES_BLOCK));
  }

  /**
   * IPMI's confidentiality pad: bytes 1, 2, ... N then N itself, with N (0 to 15) making the whole
   * a multiple of 16 bytes. Not PKCS#7, hence AES/CBC/NoPadding.
   */
  static byte[] pad(byte[] data) {
    int n = (AES_BLOCK - (data.length + 1) % AES_BLOCK) % AES_BLOCK;
    byte[] out = Arrays.copyOf(data, data.length + n + 1);
    for (int i = 1; i <= n; i++) {
      out[data.length + i - 1] = (byte) i;
    }
    out[out.length - 1] = (byte) n;
    return out;
  }

  static byte[] unpad(byte[] padded) throws MalformedException {
    if (padded.length == 0) {
      throw new MalformedException("the decrypted payload is empty");
    }
    int n = padded[padded.length - 1] & 0xff;
    if (n >= AES_BLOCK || n + 1 > padded.length) {
      throw new MalformedException("the confidentiality pad length " + n + " is not 0 to 15");
    }
    int data = padded.length - 1 - n;
    for (int i = 1; i <= n; i++) {
      if ((padded[data + i - 1] & 0xff) != i) {
        throw new MalformedException("the confidentiality pad is not 1, 2, ... " + n);
      }
    }
    return Arrays.copyOf(padded, data);
  }
}
