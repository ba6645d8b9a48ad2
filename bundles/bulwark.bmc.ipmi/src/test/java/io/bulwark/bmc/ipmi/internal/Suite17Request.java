package io.bulwark.bmc.ipmi.internal;

import java.util.Arrays;

/**
 * An IPMI request as {@link Suite17Bmc}, a test double, receives it over LAN (IPMI v2.0 table
 * 13-4's message part: rsAddr, netFn/rsLUN, checksum, rqAddr, rqSeq/rqLUN, cmd, data, checksum),
 * and the response it answers with. Written from the specification, independently of the driver's
 * IpmiMessage.
 *
 * @param header the request's first six bytes
 * @param data the request data
 */
record Suite17Request(byte[] header, byte[] data) {
  /** The request in {@code m}, or null if it is not one addressed to the BMC with good sums. */
  static Suite17Request parse(byte[] m) {
    if (m.length < 7 || (m[0] & 0xff) != 0x20 || sum(m, 0, 3) != 0 || sum(m, 3, m.length) != 0) {
      return null;
    }
    if (((m[1] & 0xff) >>> 2 & 1) != 0) {
      return null;
    }
    return new Suite17Request(Arrays.copyOf(m, 6), Arrays.copyOfRange(m, 6, m.length - 1));
  }

  int netFn() {
    return (header[1] & 0xff) >>> 2;
  }

  int cmd() {
    return header[5] & 0xff;
  }

  /** The response: {@code body} is the completion code and the response data. */
  byte[] response(byte[] body) {
    byte[] r = new byte[6 + body.length + 1];
    r[0] = header[3];
    r[1] = (byte) ((netFn() + 1) << 2 | (header[4] & 0x03));
    r[2] = (byte) -sum(r, 0, 2);
    r[3] = header[0];
    r[4] = (byte) ((header[4] & 0xfc) | (header[1] & 0x03));
    r[5] = header[5];
    System.arraycopy(body, 0, r, 6, body.length);
    r[r.length - 1] = (byte) -sum(r, 3, r.length - 1);
    return r;
  }

  private static byte sum(byte[] b, int from, int to) {
    int s = 0;
    for (int i = from; i < to; i++) {
      s += b[i];
    }
    return (byte) s;
  }
}
