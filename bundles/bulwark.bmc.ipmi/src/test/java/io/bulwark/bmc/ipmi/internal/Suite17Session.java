package io.bulwark.bmc.ipmi.internal;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * One RMCP+ session of {@link Suite17Bmc}, a test double, from Open Session on: the RAKP values,
 * and once RAKP 3 has been checked the session keys and what they protect (IPMI v2.0 tables 13-8
 * and 13-20 to 13-22): the HMAC-SHA256-128 AuthCode under K1 over auth type to next header with the
 * FFh integrity pad, and AES-CBC-128 under the first 16 bytes of K2 with a random IV and the IPMI
 * confidentiality pad. Written from the specification, independently of the driver's SessionCrypto
 * and RmcpPackets. Used by the double's one thread.
 */
final class Suite17Session {
  static final String PROVIDER = "BCFIPS";
  private static final String HMAC = "HmacSHA256";

  final int consoleId;
  final int bmcId;
  final int maxPrivilege;
  byte[] rm;
  byte[] rc;
  byte role;
  byte[] name = new byte[0];
  Mac integrity;
  SecretKeySpec aesKey;
  int privilege;
  int outboundSeq;

  Suite17Session(int consoleId, int bmcId, int maxPrivilege) {
    this.consoleId = consoleId;
    this.bmcId = bmcId;
    this.maxPrivilege = maxPrivilege;
  }

  boolean active() {
    return integrity != null;
  }

  /** Derives K1 and K2 from SIK (section 13.32) and opens the session at User privilege. */
  void activate(byte[] sik) throws GeneralSecurityException {
    byte[] k1 = hmac(sik, filled(0x01));
    byte[] k2 = hmac(sik, filled(0x02));
    integrity = Mac.getInstance(HMAC, PROVIDER);
    integrity.init(new SecretKeySpec(k1, HMAC));
    aesKey = new SecretKeySpec(Arrays.copyOf(k2, 16), "AES");
    privilege = Suite17Machine.USER;
  }

  /** Checks the AuthCode and the pads of a session packet and decrypts its payload. */
  byte[] unseal(byte[] d, int length, List<String> events) throws GeneralSecurityException {
    int trailer = d.length - 16 - length;
    if (trailer < 2 + 16) {
      events.add("dropped packet without AuthCode");
      return null;
    }
    int nextHeader = d.length - 16 - 1;
    int padLength = d[nextHeader - 1] & 0xff;
    boolean padOk = d[nextHeader] == 0x07 && trailer == padLength + 2 + 16;
    for (int i = 16 + length; padOk && i < 16 + length + padLength; i++) {
      padOk = d[i] == (byte) 0xff;
    }
    if (!padOk || (d.length - 16 - 4) % 4 != 0) {
      events.add("dropped packet with a bad integrity pad");
      return null;
    }
    integrity.update(d, 4, d.length - 16 - 4);
    byte[] code = Arrays.copyOf(integrity.doFinal(), 16);
    if (!MessageDigest.isEqual(code, Arrays.copyOfRange(d, d.length - 16, d.length))) {
      events.add("dropped packet with a bad AuthCode");
      return null;
    }
    int seq = le32(d, 10);
    if (seq == 0) {
      return null;
    }
    if (length < 32 || length % 16 != 0) {
      events.add("dropped packet that is not IV and AES blocks");
      return null;
    }
    Cipher aes = Cipher.getInstance("AES/CBC/NoPadding", PROVIDER);
    aes.init(Cipher.DECRYPT_MODE, aesKey, new IvParameterSpec(d, 16, 16));
    byte[] plain = aes.doFinal(d, 32, length - 16);
    int pad = plain[plain.length - 1] & 0xff;
    if (pad > 15) {
      events.add("dropped packet with a bad confidentiality pad");
      return null;
    }
    for (int i = 0; i < pad; i++) {
      if ((plain[plain.length - 1 - pad + i] & 0xff) != i + 1) {
        events.add("dropped packet with a bad confidentiality pad");
        return null;
      }
    }
    return Arrays.copyOf(plain, plain.length - 1 - pad);
  }

  /** Encrypts a response message and closes the packet with the integrity trailer. */
  byte[] seal(byte[] message, SecureRandom random) throws GeneralSecurityException {
    if (message == null) {
      return null;
    }
    int pad = (16 - (message.length + 1) % 16) % 16;
    byte[] plain = Arrays.copyOf(message, message.length + pad + 1);
    for (int i = 0; i < pad; i++) {
      plain[message.length + i] = (byte) (i + 1);
    }
    plain[plain.length - 1] = (byte) pad;
    byte[] iv = new byte[16];
    random.nextBytes(iv);
    Cipher aes = Cipher.getInstance("AES/CBC/NoPadding", PROVIDER);
    aes.init(Cipher.ENCRYPT_MODE, aesKey, new IvParameterSpec(iv));
    byte[] body = Suite17Machine.concat(iv, aes.doFinal(plain));
    int integrityPad = 0;
    while ((12 + body.length + integrityPad + 2) % 4 != 0) {
      integrityPad++;
    }
    byte[] p = new byte[16 + body.length + integrityPad + 2 + 16];
    outboundSeq = outboundSeq + 1 == 0 ? 1 : outboundSeq + 1;
    header(p, 0xc0, consoleId, outboundSeq, body.length);
    System.arraycopy(body, 0, p, 16, body.length);
    int at = 16 + body.length;
    Arrays.fill(p, at, at + integrityPad, (byte) 0xff);
    p[at + integrityPad] = (byte) integrityPad;
    p[at + integrityPad + 1] = 0x07;
    integrity.update(p, 4, p.length - 16 - 4);
    System.arraycopy(integrity.doFinal(), 0, p, p.length - 16, 16);
    return p;
  }

  static byte[] hmac(byte[] key, byte[]... parts) throws GeneralSecurityException {
    Mac mac = Mac.getInstance(HMAC, PROVIDER);
    mac.init(new SecretKeySpec(key, HMAC));
    for (byte[] p : parts) {
      mac.update(p);
    }
    return mac.doFinal();
  }

  private static byte[] filled(int b) {
    byte[] c = new byte[20];
    Arrays.fill(c, (byte) b);
    return c;
  }

  static void header(byte[] p, int payloadType, int sessionId, int seq, int length) {
    p[0] = 0x06;
    p[2] = (byte) 0xff;
    p[3] = 0x07;
    p[4] = 0x06;
    p[5] = (byte) payloadType;
    put32(p, 6, sessionId);
    put32(p, 10, seq);
    p[14] = (byte) length;
    p[15] = (byte) (length >> 8);
  }

  static int le32(byte[] b, int at) {
    return (b[at] & 0xff)
        | (b[at + 1] & 0xff) << 8
        | (b[at + 2] & 0xff) << 16
        | (b[at + 3] & 0xff) << 24;
  }

  static void put32(byte[] b, int at, int v) {
    for (int i = 0; i < 4; i++) {
      b[at + i] = (byte) (v >>> (8 * i));
    }
  }
}
