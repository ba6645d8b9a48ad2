package io.bulwark.security.internal;

import io.bulwark.api.security.KeySealer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * TEST DOUBLE, not a sealer: "seals" by XOR with a random pad that lives only in this object, so a
 * blob opens with the same instance and fails with another one, like a TPM. It protects nothing.
 * Counts its calls so tests can see the store used it.
 */
final class XorKeySealer implements KeySealer {
  private static final byte[] MARKER = {'X', 'O', 'R', '!'};

  private final byte[] pad = new byte[64];
  private final byte[] identity = new byte[8];
  final AtomicInteger seals = new AtomicInteger();
  final AtomicInteger unseals = new AtomicInteger();

  XorKeySealer() {
    Fips.module().random().nextBytes(pad);
    Fips.module().random().nextBytes(identity);
  }

  @Override
  public byte[] seal(byte[] secret) {
    seals.incrementAndGet();
    int header = MARKER.length + identity.length;
    byte[] blob = new byte[header + secret.length];
    System.arraycopy(MARKER, 0, blob, 0, MARKER.length);
    System.arraycopy(identity, 0, blob, MARKER.length, identity.length);
    for (int i = 0; i < secret.length; i++) {
      blob[header + i] = (byte) (secret[i] ^ pad[i % pad.length]);
    }
    return blob;
  }

  @Override
  public byte[] unseal(byte[] blob) {
    unseals.incrementAndGet();
    int header = MARKER.length + identity.length;
    if (blob.length < header
        || !Arrays.equals(blob, 0, MARKER.length, MARKER, 0, MARKER.length)
        || !Arrays.equals(blob, MARKER.length, header, identity, 0, identity.length)) {
      throw new IllegalStateException("the blob was sealed by another (test) TPM");
    }
    byte[] secret = new byte[blob.length - header];
    for (int i = 0; i < secret.length; i++) {
      secret[i] = (byte) (blob[header + i] ^ pad[i % pad.length]);
    }
    return secret;
  }

  @Override
  public String description() {
    return "XOR test double (no TPM)";
  }
}
