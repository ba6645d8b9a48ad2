package io.bulwark.pxe.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * TFTP messages (RFC 1350) with the option extension (RFC 2347): what the server reads (read and
 * write requests, acknowledgements, errors) and writes (data, option acknowledgements, errors).
 */
final class TftpPacket {
  static final int RRQ = 1;
  static final int WRQ = 2;
  static final int DATA = 3;
  static final int ACK = 4;
  static final int ERROR = 5;
  static final int OACK = 6;

  static final int NOT_DEFINED = 0;
  static final int FILE_NOT_FOUND = 1;
  static final int ACCESS_VIOLATION = 2;
  static final int ILLEGAL_OPERATION = 4;
  static final int UNKNOWN_TID = 5;
  static final int OPTION_REFUSED = 8;

  /** A read or write request: file name, mode and options (names lower-cased, in order). */
  record Request(int opcode, String file, String mode, Map<String, String> options) {}

  private TftpPacket() {}

  static int opcode(byte[] data, int length) throws MalformedPacketException {
    if (length < 4) {
      throw new MalformedPacketException("short", length + " bytes, fewer than any TFTP message");
    }
    return ((data[0] & 0xff) << 8) | (data[1] & 0xff);
  }

  /**
   * Reads a read or write request.
   *
   * @throws MalformedPacketException if it is not one, or its strings are not terminated
   */
  static Request request(byte[] data, int length) throws MalformedPacketException {
    int op = opcode(data, length);
    if (op != RRQ && op != WRQ) {
      throw new MalformedPacketException("opcode", "opcode " + op + " is not a request");
    }
    int[] at = {2};
    String file = string(data, length, at, "file name");
    String mode = string(data, length, at, "mode").toLowerCase(Locale.ROOT);
    if (file.isEmpty()) {
      throw new MalformedPacketException("request", "empty file name");
    }
    if (!mode.equals("octet") && !mode.equals("netascii")) {
      throw new MalformedPacketException("mode", "mode '" + mode + "' is not octet or netascii");
    }
    Map<String, String> options = new LinkedHashMap<>();
    while (at[0] < length) {
      String name = string(data, length, at, "option name").toLowerCase(Locale.ROOT);
      String value = string(data, length, at, "option value");
      if (name.isEmpty()) {
        throw new MalformedPacketException("option", "empty option name");
      }
      options.putIfAbsent(name, value);
    }
    return new Request(op, file, mode, options);
  }

  private static String string(byte[] data, int length, int[] at, String what)
      throws MalformedPacketException {
    int start = at[0];
    int i = start;
    while (i < length && data[i] != 0) {
      i++;
    }
    if (i >= length) {
      throw new MalformedPacketException("string", what + " is not terminated");
    }
    at[0] = i + 1;
    return new String(data, start, i - start, StandardCharsets.US_ASCII);
  }

  /** Returns the block number of an acknowledgement. */
  static int ackBlock(byte[] data, int length) throws MalformedPacketException {
    if (opcode(data, length) != ACK) {
      throw new MalformedPacketException("opcode", "not an acknowledgement");
    }
    return ((data[2] & 0xff) << 8) | (data[3] & 0xff);
  }

  static ByteBuffer error(int code, String message) {
    byte[] m = message.getBytes(StandardCharsets.US_ASCII);
    ByteBuffer b = ByteBuffer.allocate(5 + m.length);
    b.putShort((short) ERROR).putShort((short) code).put(m).put((byte) 0);
    return b.flip();
  }

  static ByteBuffer oack(Map<String, String> options) {
    ByteBuffer b = ByteBuffer.allocate(512);
    b.putShort((short) OACK);
    for (Map.Entry<String, String> o : options.entrySet()) {
      b.put(o.getKey().getBytes(StandardCharsets.US_ASCII)).put((byte) 0);
      b.put(o.getValue().getBytes(StandardCharsets.US_ASCII)).put((byte) 0);
    }
    return b.flip();
  }
}
