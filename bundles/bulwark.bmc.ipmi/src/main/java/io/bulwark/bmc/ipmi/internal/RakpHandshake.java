package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.bmc.ipmi.internal.IpmiMessage.Response;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Mac;

/**
 * Logs in to a BMC with RMCP+ (IPMI v2.0 section 13.15 to 13.31): Open Session with exactly one
 * cipher suite proposed, then RAKP messages 1 to 4, deriving SIK, K1 and K2, and finally Set
 * Session Privilege Level to Operator, the least privilege that power and boot control need. The
 * password never leaves the appliance, in any form but the suite's HMACs; it is read into one
 * zero-padded 20-byte key that is cleared before this returns.
 */
final class RakpHandshake {
  /** Operator: enough for Chassis Control and Set System Boot Options, less than Administrator. */
  static final int PRIVILEGE = 0x03;

  /** RAKP 1 role bit: look the user up by name only (the privilege is a limit, not a key). */
  private static final int NAME_ONLY_LOOKUP = 0x10;

  private final RmcpSession session;
  private final CipherSuite suite;
  private final SecureRandom random;
  private final String user;
  private int tag;

  private RakpHandshake(RmcpSession session, CipherSuite suite, SecureRandom random, String user) {
    this.session = session;
    this.suite = suite;
    this.random = random;
    this.user = user;
  }

  /** Logs in as {@code user}; clears {@code password} (the caller's copy) when done. */
  static void establish(
      RmcpSession session, CipherSuite suite, SecureRandom random, String user, char[] password)
      throws BmcException {
    try {
      new RakpHandshake(session, suite, random, user).run(password);
    } catch (GeneralSecurityException e) {
      throw new BmcException(
          Kind.UNSUPPORTED,
          "the appliance's FIPS provider "
              + SessionCrypto.PROVIDER
              + " cannot do cipher suite "
              + suite
              + " for BMC "
              + session.bmc()
              + ": "
              + e.getMessage(),
          e);
    } finally {
      Arrays.fill(password, '\0');
    }
  }

  private void run(char[] password) throws BmcException, GeneralSecurityException {
    byte[] name = user.getBytes(StandardCharsets.UTF_8);
    if (name.length > 16) {
      throw credentials("IPMI user names have at most 16 bytes, '" + user + "' has " + name.length);
    }
    byte[] kuid = key(password);
    byte[] sik = null;
    try {
      int consoleId = random.nextInt() | 1;
      byte[] opened = open(consoleId);
      int bmcId = Wire.u32(opened, 8);
      byte[] sidm = Wire.slice(opened, 4, 4);
      byte[] sidc = Wire.slice(opened, 8, 4);
      byte[] rm = new byte[16];
      random.nextBytes(rm);
      byte[] role = {(byte) (PRIVILEGE | NAME_ONLY_LOOKUP)};
      byte[] ulen = {(byte) name.length};

      byte[] rakp1 = new byte[28 + name.length];
      rakp1[0] = (byte) ++tag;
      System.arraycopy(sidc, 0, rakp1, 4, 4);
      System.arraycopy(rm, 0, rakp1, 8, 16);
      rakp1[24] = role[0];
      rakp1[27] = ulen[0];
      System.arraycopy(name, 0, rakp1, 28, name.length);
      byte[] rakp2 =
          exchange(RmcpPackets.PAYLOAD_RAKP_1, rakp1, RmcpPackets.PAYLOAD_RAKP_2, "RAKP message 1");
      status(rakp2, "RAKP message 1");
      Wire.need(rakp2, 40 + suite.rakpCodeLength);
      if (Wire.u32(rakp2, 4) != consoleId) {
        throw protocol("RAKP message 2 names another console session");
      }
      byte[] rc = Wire.slice(rakp2, 8, 16);
      byte[] guid = Wire.slice(rakp2, 24, 16);
      Mac withKuid = SessionCrypto.mac(suite.mac, kuid);
      byte[] expected = withKuid.doFinal(rakp2Input(sidm, sidc, rm, rc, guid, role[0], name));
      if (!MessageDigest.isEqual(expected, Wire.slice(rakp2, 40, suite.rakpCodeLength))) {
        byte[] abort = new byte[8];
        abort[0] = (byte) ++tag;
        abort[1] = 0x0f; // invalid integrity check value: tell the BMC to drop the session
        System.arraycopy(sidc, 0, abort, 4, 4);
        session.channel().sendOnly(RmcpPackets.v20(RmcpPackets.PAYLOAD_RAKP_3, 0, 0, abort, null));
        throw credentials(
            "its RAKP 2 proof does not match the stored password, so the password is wrong (or"
                + " this is not the BMC it should be)");
      }
      byte[] rakp3 = new byte[8 + suite.rakpCodeLength];
      rakp3[0] = (byte) ++tag;
      System.arraycopy(sidc, 0, rakp3, 4, 4);
      System.arraycopy(
          withKuid.doFinal(rakp3Input(rc, sidm, role[0], name)), 0, rakp3, 8, suite.rakpCodeLength);
      // No BMC key (K_G) is configured for Bulwark's BMCs: K_G is K_UID (section 13.31).
      sik = withKuid.doFinal(sikInput(rm, rc, role[0], name));
      Arrays.fill(kuid, (byte) 0);
      byte[] rakp4 =
          exchange(RmcpPackets.PAYLOAD_RAKP_3, rakp3, RmcpPackets.PAYLOAD_RAKP_4, "RAKP message 3");
      status(rakp4, "RAKP message 3");
      Wire.need(rakp4, 8 + suite.rakp4Length);
      Mac withSik = SessionCrypto.mac(suite.mac, sik);
      byte[] icv = Arrays.copyOf(withSik.doFinal(Wire.concat(rm, sidc, guid)), suite.rakp4Length);
      if (!MessageDigest.isEqual(icv, Wire.slice(rakp4, 8, suite.rakp4Length))) {
        throw protocol(
            "its RAKP 4 integrity check value does not match; if a BMC key (K_G) is set on it,"
                + " clear it (Bulwark does not use one)");
      }
      byte[] k1 = withSik.doFinal(constant(0x01));
      byte[] k2 = withSik.doFinal(constant(0x02));
      session.established(consoleId, bmcId, new SessionCrypto(suite, k1, k2, random));
      Arrays.fill(k1, (byte) 0);
      Arrays.fill(k2, (byte) 0);
    } catch (Wire.MalformedException e) {
      throw protocol("its RMCP+ login answer is malformed: " + e.getMessage());
    } finally {
      Arrays.fill(kuid, (byte) 0);
      if (sik != null) {
        Arrays.fill(sik, (byte) 0);
      }
    }
    Response r =
        session.send(
            0, IpmiMessage.NETFN_APP, 0x3b, new byte[] {PRIVILEGE}, "Set Session Privilege Level");
    if (r.completionCode() == 0x80 || r.completionCode() == 0x81) {
      throw credentials("the user may not work at Operator privilege; give it the Operator role");
    } else if (r.completionCode() != 0) {
      throw session.failed("Set Session Privilege Level request", r.completionCode());
    }
  }

  /** Proposes the one suite; returns the Open Session Response payload. */
  private byte[] open(int consoleId) throws BmcException, Wire.MalformedException {
    byte[] req = new byte[32];
    req[0] = (byte) ++tag;
    req[1] = PRIVILEGE;
    Wire.put32(req, 4, consoleId);
    algorithm(req, 8, 0x00, suite.authentication);
    algorithm(req, 16, 0x01, suite.integrity);
    algorithm(req, 24, 0x02, suite.confidentiality);
    byte[] rsp =
        exchange(
            RmcpPackets.PAYLOAD_OPEN_SESSION_REQUEST,
            req,
            RmcpPackets.PAYLOAD_OPEN_SESSION_RESPONSE,
            "RMCP+ Open Session request");
    status(rsp, "RMCP+ Open Session request for cipher suite " + suite);
    Wire.need(rsp, 36);
    if (Wire.u32(rsp, 4) != consoleId) {
      throw protocol("its Open Session Response names another console session");
    }
    if (!suite.matches(rsp[16] & 0xff, rsp[24] & 0xff, rsp[32] & 0xff)) {
      throw protocol(
          "it opened the session with other algorithms than cipher suite "
              + suite
              + " proposed ("
              + CipherSuite.describe(suite.id, rsp[16] & 0xff, rsp[24] & 0xff, rsp[32] & 0xff)
              + ")");
    }
    return rsp;
  }

  private static void algorithm(byte[] req, int at, int type, int algorithm) {
    req[at] = (byte) type;
    req[at + 3] = 0x08;
    req[at + 4] = (byte) algorithm;
  }

  private byte[] exchange(int type, byte[] payload, int answerType, String what)
      throws BmcException {
    byte[] packet;
    try {
      packet = RmcpPackets.v20(type, 0, 0, payload, null);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("a plain packet needs no crypto", e);
    }
    int expectedTag = payload[0];
    return session
        .channel()
        .exchange(
            packet,
            d -> {
              RmcpPackets.Packet p = RmcpPackets.parse(d, null);
              if (p.payloadType() != answerType || p.payload().length < 2) {
                return null;
              }
              return p.payload()[0] == expectedTag ? p.payload() : null;
            },
            what);
  }

  private void status(byte[] answer, String what) throws BmcException {
    int status = answer[1] & 0xff;
    if (status == 0) {
      return;
    }
    Kind kind = IpmiCodes.rakpKind(status);
    String text = IpmiCodes.rakpStatus(status) + String.format(" (RMCP+ status 0x%02x)", status);
    if (kind == Kind.CREDENTIALS) {
      throw credentials("it answered the " + what + " with " + text);
    }
    throw new BmcException(
        kind, "BMC " + session.bmc() + " refused the " + what + ": " + text, null);
  }

  private BmcException credentials(String why) {
    return new BmcException(
        Kind.CREDENTIALS,
        "BMC "
            + session.bmc()
            + " refused the credentials for user "
            + user
            + " ("
            + why
            + "): check the user name and password stored for this machine",
        null);
  }

  private BmcException protocol(String why) {
    return new BmcException(
        Kind.PROTOCOL, "BMC " + session.bmc() + " did not log in by RMCP+: " + why, null);
  }

  /** K_UID: the password as UTF-8, zero-padded to the 20 bytes of an IPMI 2.0 password. */
  private byte[] key(char[] password) throws BmcException {
    ByteBuffer encoded = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
    try {
      if (encoded.remaining() > 20) {
        throw credentials(
            "IPMI 2.0 passwords have at most 20 bytes, the stored one has " + encoded.remaining());
      }
      byte[] k = new byte[20];
      encoded.get(k, 0, encoded.remaining());
      return k;
    } finally {
      if (encoded.hasArray()) {
        Arrays.fill(encoded.array(), (byte) 0);
      }
    }
  }

  /** What RAKP 2's key exchange authentication code covers (table 13-13). */
  static byte[] rakp2Input(
      byte[] sidm, byte[] sidc, byte[] rm, byte[] rc, byte[] guid, byte role, byte[] name) {
    return Wire.concat(sidm, sidc, rm, rc, guid, new byte[] {role, (byte) name.length}, name);
  }

  /** What RAKP 3's key exchange authentication code covers (table 13-14). */
  static byte[] rakp3Input(byte[] rc, byte[] sidm, byte role, byte[] name) {
    return Wire.concat(rc, sidm, new byte[] {role, (byte) name.length}, name);
  }

  /** What the session integrity key SIK is the HMAC of (section 13.31). */
  static byte[] sikInput(byte[] rm, byte[] rc, byte role, byte[] name) {
    return Wire.concat(rm, rc, new byte[] {role, (byte) name.length}, name);
  }

  static byte[] constant(int b) {
    byte[] c = new byte[20];
    Arrays.fill(c, (byte) b);
    return c;
  }
}
