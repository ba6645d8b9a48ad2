package io.bulwark.bmc.ipmi.internal;

import io.bulwark.bmc.ipmi.internal.Wire.MalformedException;
import java.security.GeneralSecurityException;
import java.util.Arrays;

/**
 * RMCP datagrams with an IPMI session header (IPMI v2.0 section 13): the IPMI 1.5 form without
 * authentication, used only for the two pre-session requests, and the RMCP+ form, plain for Open
 * Session and RAKP and, once keys exist, encrypted and closed by an integrity AuthCode.
 */
final class RmcpPackets {
  static final int AUTH_NONE = 0x00;
  static final int AUTH_RMCP_PLUS = 0x06;

  static final int PAYLOAD_IPMI = 0x00;
  static final int PAYLOAD_OPEN_SESSION_REQUEST = 0x10;
  static final int PAYLOAD_OPEN_SESSION_RESPONSE = 0x11;
  static final int PAYLOAD_RAKP_1 = 0x12;
  static final int PAYLOAD_RAKP_2 = 0x13;
  static final int PAYLOAD_RAKP_3 = 0x14;
  static final int PAYLOAD_RAKP_4 = 0x15;

  private static final int ENCRYPTED = 0x80;
  private static final int AUTHENTICATED = 0x40;

  /** The RMCP header: version 1.0 (06h), reserved, sequence FFh (no RMCP ACK), class IPMI. */
  private static final byte[] RMCP = {0x06, 0x00, (byte) 0xff, 0x07};

  private RmcpPackets() {}

  /** A received packet's session header and its payload (decrypted where it was encrypted). */
  record Packet(
      int authType,
      int payloadType,
      boolean protectedPayload,
      int sessionId,
      int seq,
      byte[] payload) {}

  /** An IPMI 1.5 session-less packet (authentication type none) around {@code message}. */
  static byte[] v15(byte[] message) {
    byte[] p = new byte[4 + 10 + message.length];
    System.arraycopy(RMCP, 0, p, 0, 4);
    p[4] = AUTH_NONE;
    p[13] = (byte) message.length;
    System.arraycopy(message, 0, p, 14, message.length);
    return p;
  }

  /**
   * An RMCP+ packet. With {@code crypto} the payload is encrypted and the packet closed by the
   * integrity pad, pad length, next header (07h) and AuthCode; without, it is sent in the clear.
   */
  static byte[] v20(int payloadType, int sessionId, int seq, byte[] payload, SessionCrypto crypto)
      throws GeneralSecurityException {
    byte[] body = crypto == null ? payload : crypto.encrypt(payload);
    int header = 4 + 12;
    int trailer = 0;
    int padLength = 0;
    if (crypto != null) {
      // The integrity pad makes auth type .. next header a multiple of 4 bytes (table 13-8).
      padLength = (4 - (12 + body.length + 2) % 4) % 4;
      trailer = padLength + 2 + crypto.suite().integrityLength;
    }
    byte[] p = new byte[header + body.length + trailer];
    System.arraycopy(RMCP, 0, p, 0, 4);
    p[4] = AUTH_RMCP_PLUS;
    p[5] = (byte) (payloadType | (crypto == null ? 0 : ENCRYPTED | AUTHENTICATED));
    Wire.put32(p, 6, sessionId);
    Wire.put32(p, 10, seq);
    Wire.put16(p, 14, body.length);
    System.arraycopy(body, 0, p, header, body.length);
    if (crypto != null) {
      int at = header + body.length;
      Arrays.fill(p, at, at + padLength, (byte) 0xff);
      p[at + padLength] = (byte) padLength;
      p[at + padLength + 1] = 0x07;
      int covered = at + padLength + 2 - 4;
      byte[] code = crypto.authCode(p, 4, covered);
      System.arraycopy(code, 0, p, 4 + covered, code.length);
    }
    return p;
  }

  /**
   * Parses a datagram. An RMCP+ packet that claims integrity or encryption needs {@code crypto} and
   * must pass its AuthCode; with {@code crypto}, a packet without both is refused, so nothing
   * unauthenticated is accepted inside a session.
   */
  static Packet parse(byte[] d, SessionCrypto crypto)
      throws MalformedException, GeneralSecurityException {
    if (d.length < 5 || d[0] != 0x06 || d[3] != 0x07) {
      throw new MalformedException("it is not an RMCP packet of class IPMI");
    }
    int auth = d[4] & 0xff;
    if (auth != AUTH_RMCP_PLUS) {
      if (auth != AUTH_NONE) {
        throw new MalformedException(
            String.format("it uses IPMI 1.5 authentication type 0x%02x", auth));
      }
      int length = Wire.u8(d, 13);
      return new Packet(
          auth, PAYLOAD_IPMI, false, Wire.u32(d, 9), Wire.u32(d, 5), Wire.slice(d, 14, length));
    }
    int type = Wire.u8(d, 5);
    int payloadType = type & 0x3f;
    if (payloadType == 0x02) {
      throw new MalformedException("it carries an OEM payload");
    }
    int sessionId = Wire.u32(d, 6);
    int seq = Wire.u32(d, 10);
    int length = Wire.u16(d, 14);
    byte[] body = Wire.slice(d, 16, length);
    boolean encrypted = (type & ENCRYPTED) != 0;
    boolean authenticated = (type & AUTHENTICATED) != 0;
    if (crypto == null) {
      if (encrypted || authenticated) {
        throw new MalformedException("it is protected before any session key exists");
      }
      return new Packet(auth, payloadType, false, sessionId, seq, body);
    }
    if (!encrypted || !authenticated) {
      throw new MalformedException("it is not encrypted and authenticated inside the session");
    }
    int end = 16 + length;
    int padLength = (4 - (12 + length + 2) % 4) % 4;
    Wire.need(d, end + padLength + 2 + crypto.suite().integrityLength);
    if ((d[end + padLength] & 0xff) != padLength || d[end + padLength + 1] != 0x07) {
      throw new MalformedException("its integrity pad or next header is wrong");
    }
    int covered = end + padLength + 2 - 4;
    byte[] code = Wire.slice(d, 4 + covered, crypto.suite().integrityLength);
    if (!crypto.authCodeMatches(d, 4, covered, code)) {
      throw new MalformedException("its integrity AuthCode does not match (tampered or corrupt)");
    }
    return new Packet(auth, payloadType, true, sessionId, seq, crypto.decrypt(body));
  }
}
