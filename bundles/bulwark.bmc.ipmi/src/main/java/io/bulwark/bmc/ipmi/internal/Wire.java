package io.bulwark.bmc.ipmi.internal;

/**
 * Byte-order helpers for the IPMI wire format, where multi-byte fields are little-endian, and the
 * exception that a malformed packet raises inside this package.
 */
final class Wire {
  private Wire() {}

  /** A packet or record that does not follow the IPMI specification. */
  static final class MalformedException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedException(String message) {
      super(message);
    }
  }

  static int u8(byte[] b, int i) throws MalformedException {
    need(b, i + 1);
    return b[i] & 0xff;
  }

  static int u16(byte[] b, int i) throws MalformedException {
    need(b, i + 2);
    return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8;
  }

  static int u32(byte[] b, int i) throws MalformedException {
    need(b, i + 4);
    return (b[i] & 0xff)
        | (b[i + 1] & 0xff) << 8
        | (b[i + 2] & 0xff) << 16
        | (b[i + 3] & 0xff) << 24;
  }

  static void put16(byte[] b, int i, int v) {
    b[i] = (byte) v;
    b[i + 1] = (byte) (v >>> 8);
  }

  static void put32(byte[] b, int i, int v) {
    b[i] = (byte) v;
    b[i + 1] = (byte) (v >>> 8);
    b[i + 2] = (byte) (v >>> 16);
    b[i + 3] = (byte) (v >>> 24);
  }

  static byte[] slice(byte[] b, int from, int length) throws MalformedException {
    need(b, from + length);
    byte[] out = new byte[length];
    System.arraycopy(b, from, out, 0, length);
    return out;
  }

  static void need(byte[] b, int length) throws MalformedException {
    if (b.length < length) {
      throw new MalformedException(
          "it is " + b.length + " bytes long where at least " + length + " were expected");
    }
  }

  /** Concatenates the parts, for the RAKP HMAC inputs. */
  static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
