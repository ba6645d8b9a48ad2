package io.bulwark.security.tpm.internal;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The bytes the TPM key sealer hands out: a versioned header naming the storage key and the PCRs,
 * then the sealed data object's public and private areas exactly as tpm2-tss marshals them (the
 * files {@code tpm2_create -u/-r} writes), so that tpm2-tools can load them for recovery.
 *
 * <pre>
 * magic         4 bytes  "BWSK"
 * version       u8       1
 * storage key   u8       1 = ECC P-256, AES-128-CFB, owner hierarchy ({@link TpmTemplates#storageKey})
 * key name      u16 size, then the storage key's TPM name (0x000B + SHA-256 of its public area)
 * PCR bank      u16      0x000B (SHA-256)
 * PCR bitmap    u8 size, then the TPMS_PCR_SELECTION bitmap (all zero: no PCR policy)
 * public area   TPM2B_PUBLIC  (u16 size, then TPMT_PUBLIC)
 * private area  TPM2B_PRIVATE (u16 size, then the encrypted sensitive area)
 * </pre>
 *
 * All integers are big-endian. Immutable apart from the arrays it was given.
 *
 * @param storageKeyName the TPM name of the storage key the object was sealed under
 * @param pcrs the SHA-256 PCRs the unseal policy covers; empty for none
 * @param object the sealed data object
 */
record SealedBlob(byte[] storageKeyName, PcrSelection pcrs, TpmConnection.SealedObject object) {

  static final int VERSION = 1;
  static final int ECC_P256_STORAGE_KEY = 1;

  /** Longer blobs are refused before parsing: a real one is about 250 bytes. */
  static final int MAX_BYTES = 4096;

  private static final byte[] MAGIC = {'B', 'W', 'S', 'K'};

  /** Returns the blob's bytes. */
  byte[] toBytes() {
    byte[] bitmap = pcrs.bitmap();
    ByteBuffer out =
        ByteBuffer.allocate(
            MAGIC.length
                + 2
                + 2
                + storageKeyName.length
                + 2
                + 1
                + bitmap.length
                + object.publicArea().length
                + object.privateArea().length);
    out.put(MAGIC).put((byte) VERSION).put((byte) ECC_P256_STORAGE_KEY);
    out.putShort((short) storageKeyName.length).put(storageKeyName);
    out.putShort(TpmTemplates.ALG_SHA256).put((byte) bitmap.length).put(bitmap);
    out.put(object.publicArea()).put(object.privateArea());
    return out.array();
  }

  /**
   * Reads a blob written by {@link #toBytes}. Checks its framing only; the TPM checks the rest.
   *
   * @throws IllegalStateException saying what is wrong when the bytes are not such a blob
   */
  static SealedBlob parse(byte[] blob) {
    if (blob.length > MAX_BYTES) {
      throw damaged("it has " + blob.length + " bytes, more than a sealed key can have");
    }
    ByteBuffer in = ByteBuffer.wrap(blob);
    try {
      byte[] magic = new byte[MAGIC.length];
      in.get(magic);
      if (!Arrays.equals(magic, MAGIC)) {
        throw damaged("it does not start with a Bulwark sealed-key header");
      }
      int version = in.get() & 0xff;
      if (version != VERSION) {
        throw damaged("format version " + version + " is not known (this version reads 1)");
      }
      int storageKey = in.get() & 0xff;
      if (storageKey != ECC_P256_STORAGE_KEY) {
        throw damaged("storage key kind " + storageKey + " is not known");
      }
      byte[] name = sized(in, "storage key name");
      if (name.length != 2 + TpmTemplates.SHA256_BYTES) {
        throw damaged("the storage key name has " + name.length + " bytes, not 34");
      }
      short bank = in.getShort();
      if (bank != TpmTemplates.ALG_SHA256) {
        throw damaged(String.format("PCR bank 0x%04x is not SHA-256", bank));
      }
      byte[] bitmap = new byte[in.get() & 0xff];
      in.get(bitmap);
      PcrSelection pcrs = PcrSelection.fromBitmap(bitmap);
      byte[] publicArea = tpm2b(in, "public area");
      byte[] privateArea = tpm2b(in, "private area");
      if (in.hasRemaining()) {
        throw damaged(in.remaining() + " unexpected bytes follow the private area");
      }
      return new SealedBlob(name, pcrs, new TpmConnection.SealedObject(publicArea, privateArea));
    } catch (BufferUnderflowException e) {
      throw damaged("it is truncated (" + blob.length + " bytes)");
    } catch (IllegalArgumentException e) {
      throw damaged(e.getMessage());
    }
  }

  private static byte[] sized(ByteBuffer in, String what) {
    int size = in.getShort() & 0xffff;
    if (size > in.remaining()) {
      throw damaged(
          "the " + what + " claims " + size + " bytes, only " + in.remaining() + " follow");
    }
    byte[] bytes = new byte[size];
    in.get(bytes);
    return bytes;
  }

  /** Reads a TPM2B and returns it with its size prefix, as tpm2-tss unmarshals it. */
  private static byte[] tpm2b(ByteBuffer in, String what) {
    int start = in.position();
    sized(in, what);
    return Arrays.copyOfRange(in.array(), start, in.position());
  }

  private static IllegalStateException damaged(String reason) {
    return new IllegalStateException(
        "The sealed key blob is damaged: " + reason + ". Restore it from its backup copy.");
  }
}
