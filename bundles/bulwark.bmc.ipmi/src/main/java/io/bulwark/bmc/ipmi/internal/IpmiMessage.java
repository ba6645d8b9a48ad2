package io.bulwark.bmc.ipmi.internal;

import io.bulwark.bmc.ipmi.internal.Wire.MalformedException;

/**
 * An IPMI message as carried over LAN (IPMI v2.0 section 13.8): the requester is the remote console
 * (software ID 0x81), the responder the BMC (0x20); both halves end in a two's complement checksum.
 * Requests are encoded here, responses decoded and checked.
 */
final class IpmiMessage {
  static final int BMC_ADDRESS = 0x20;
  static final int CONSOLE_ADDRESS = 0x81;

  static final int NETFN_CHASSIS = 0x00;
  static final int NETFN_SENSOR = 0x04;
  static final int NETFN_APP = 0x06;
  static final int NETFN_STORAGE = 0x0a;

  private IpmiMessage() {}

  /** A decoded response: the completion code and the data after it. */
  record Response(int netFn, int lun, int rqSeq, int command, int completionCode, byte[] data) {}

  /** Encodes a request to the BMC's {@code lun} with the 6-bit sequence number {@code rqSeq}. */
  static byte[] request(int netFn, int lun, int rqSeq, int command, byte[] data) {
    byte[] m = new byte[7 + data.length];
    m[0] = (byte) BMC_ADDRESS;
    m[1] = (byte) (netFn << 2 | (lun & 0x03));
    m[2] = checksum(m, 0, 2);
    m[3] = (byte) CONSOLE_ADDRESS;
    m[4] = (byte) ((rqSeq & 0x3f) << 2);
    m[5] = (byte) command;
    System.arraycopy(data, 0, m, 6, data.length);
    m[m.length - 1] = checksum(m, 3, m.length - 4);
    return m;
  }

  /** Decodes a response, checking both checksums and that it is addressed to the console. */
  static Response response(byte[] m) throws MalformedException {
    if (m.length < 8) {
      throw new MalformedException(
          "an IPMI response of " + m.length + " bytes is shorter than the 8 of an empty one");
    }
    if (checksum(m, 0, 2) != m[2]) {
      throw new MalformedException("the IPMI response header checksum is wrong");
    }
    if (checksum(m, 3, m.length - 4) != m[m.length - 1]) {
      throw new MalformedException("the IPMI response data checksum is wrong");
    }
    if ((m[0] & 0xff) != CONSOLE_ADDRESS) {
      throw new MalformedException(
          String.format("the IPMI response is addressed to 0x%02x, not the console", m[0] & 0xff));
    }
    int netFn = (m[1] & 0xff) >>> 2;
    if ((netFn & 1) == 0) {
      throw new MalformedException(String.format("net function 0x%02x is a request", netFn));
    }
    byte[] data = Wire.slice(m, 7, m.length - 8);
    return new Response(
        netFn - 1, m[1] & 0x03, (m[4] & 0xff) >>> 2, m[5] & 0xff, m[6] & 0xff, data);
  }

  static byte checksum(byte[] b, int from, int length) {
    int sum = 0;
    for (int i = from; i < from + length; i++) {
      sum += b[i];
    }
    return (byte) -sum;
  }
}
