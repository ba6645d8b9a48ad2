package io.bulwark.security.tpm.internal;

import java.io.ByteArrayOutputStream;

/**
 * Builds the TPM structures the key sealer sends, in TPM wire format: the storage key template, the
 * sealed data object template, the sensitive data, PCR selections and session ciphers. The storage
 * key template is the ECC P-256 storage key that {@code tpm2_createprimary -C o -g sha256 -G
 * ecc256:aes128cfb -a "fixedtpm|fixedparent|sensitivedataorigin|userwithauth|noda|restricted|
 * decrypt"} creates, so the TPM derives the same key from its owner seed at every call and
 * tpm2-tools can re-create it for recovery.
 */
final class TpmTemplates {

  static final short ALG_AES = 0x0006;
  static final short ALG_KEYEDHASH = 0x0008;
  static final short ALG_SHA256 = 0x000B;
  static final short ALG_NULL = 0x0010;
  static final short ALG_ECC = 0x0023;
  static final short ALG_CFB = 0x0043;
  static final short ECC_NIST_P256 = 0x0003;

  static final int FIXED_TPM = 0x00000002;
  static final int FIXED_PARENT = 0x00000010;
  static final int SENSITIVE_DATA_ORIGIN = 0x00000020;
  static final int USER_WITH_AUTH = 0x00000040;
  static final int NO_DA = 0x00000400;
  static final int RESTRICTED = 0x00010000;
  static final int DECRYPT = 0x00020000;

  /** The most bytes a sealed data object holds (MAX_SYM_DATA). */
  static final int MAX_SECRET_BYTES = 128;

  /** Bytes of a SHA-256 digest. */
  static final int SHA256_BYTES = 32;

  private TpmTemplates() {}

  /** TPM2B_PUBLIC of the storage key: ECC P-256, restricted decrypt, AES-128-CFB. */
  static byte[] storageKey() {
    Wire key = new Wire();
    key.u16(ALG_ECC).u16(ALG_SHA256);
    key.u32(
        FIXED_TPM
            | FIXED_PARENT
            | SENSITIVE_DATA_ORIGIN
            | USER_WITH_AUTH
            | NO_DA
            | RESTRICTED
            | DECRYPT);
    key.sized(new byte[0]);
    key.u16(ALG_AES).u16(128).u16(ALG_CFB);
    key.u16(ALG_NULL);
    key.u16(ECC_NIST_P256);
    key.u16(ALG_NULL);
    key.sized(new byte[0]).sized(new byte[0]);
    return new Wire().sized(key.bytes()).bytes();
  }

  /**
   * TPM2B_PUBLIC of a sealed data object: a keyed-hash object without scheme that only this TPM
   * under this parent can load. With an empty {@code policyDigest} it is unsealed with its (empty)
   * authorization value; otherwise only through a policy session that reaches the digest.
   */
  static byte[] sealedObject(byte[] policyDigest) {
    int attributes = FIXED_TPM | FIXED_PARENT | NO_DA;
    if (policyDigest.length == 0) {
      attributes |= USER_WITH_AUTH;
    }
    Wire object = new Wire();
    object.u16(ALG_KEYEDHASH).u16(ALG_SHA256).u32(attributes);
    object.sized(policyDigest);
    object.u16(ALG_NULL);
    object.sized(new byte[0]);
    return new Wire().sized(object.bytes()).bytes();
  }

  /**
   * TPM2B_SENSITIVE_CREATE holding {@code secret} as data and an empty authorization value. Built
   * in one array so that the caller can clear the only copy.
   */
  static byte[] sensitive(byte[] secret) {
    int inner = 2 + 2 + secret.length;
    byte[] wire = new byte[2 + inner];
    wire[0] = (byte) (inner >>> 8);
    wire[1] = (byte) inner;
    wire[4] = (byte) (secret.length >>> 8);
    wire[5] = (byte) secret.length;
    System.arraycopy(secret, 0, wire, 6, secret.length);
    return wire;
  }

  /** TPML_PCR_SELECTION of the SHA-256 bank; no entries when {@code pcrs} is empty. */
  static byte[] pcrSelectionList(PcrSelection pcrs) {
    Wire list = new Wire();
    if (pcrs.isEmpty()) {
      return list.u32(0).bytes();
    }
    byte[] bitmap = pcrs.bitmap();
    list.u32(1).u16(ALG_SHA256).u8(bitmap.length);
    list.raw(bitmap);
    return list.bytes();
  }

  /** TPMT_SYM_DEF for AES-128-CFB parameter encryption. */
  static byte[] aes128Cfb() {
    return new Wire().u16(ALG_AES).u16(128).u16(ALG_CFB).bytes();
  }

  /** TPMT_SYM_DEF without parameter encryption. */
  static byte[] noCipher() {
    return new Wire().u16(ALG_NULL).bytes();
  }

  /** TPML_DIGEST_VALUES with one SHA-256 digest, for extending a PCR. */
  static byte[] sha256Digest(byte[] digest) {
    if (digest.length != SHA256_BYTES) {
      throw new IllegalArgumentException("a SHA-256 digest has 32 bytes, got " + digest.length);
    }
    return new Wire().u32(1).u16(ALG_SHA256).raw(digest).bytes();
  }

  /** A big-endian byte sink. */
  private static final class Wire extends ByteArrayOutputStream {

    Wire u8(int value) {
      write(value);
      return this;
    }

    Wire u16(int value) {
      write(value >>> 8);
      write(value);
      return this;
    }

    Wire u32(int value) {
      return u16(value >>> 16).u16(value);
    }

    Wire raw(byte[] bytes) {
      write(bytes, 0, bytes.length);
      return this;
    }

    Wire sized(byte[] bytes) {
      return u16(bytes.length).raw(bytes);
    }

    byte[] bytes() {
      return toByteArray();
    }
  }
}
