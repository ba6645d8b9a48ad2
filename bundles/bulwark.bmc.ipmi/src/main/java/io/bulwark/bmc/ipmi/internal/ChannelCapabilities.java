package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.bmc.ipmi.internal.IpmiMessage.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a BMC's LAN channel offers, asked before any credential is used: Get Channel Authentication
 * Capabilities (IPMI 1.5 framing, asking for the IPMI 2.0 extended data) must say IPMI 2.0, and Get
 * Channel Cipher Suites must list the suite the driver will propose, or the BMC is refused with the
 * suites it does offer.
 */
final class ChannelCapabilities {
  /** The channel the request arrives on. */
  private static final int CURRENT_CHANNEL = 0x0e;

  private ChannelCapabilities() {}

  /** One cipher suite record of Get Channel Cipher Suites (its first algorithm of each kind). */
  record Offered(int id, int authentication, int integrity, int confidentiality) {
    @Override
    public String toString() {
      return CipherSuite.describe(id, authentication, integrity, confidentiality);
    }
  }

  static void require(RmcpSession session, CipherSuite suite) throws BmcException {
    Response caps =
        session.sessionless(
            IpmiMessage.NETFN_APP,
            0x38,
            new byte[] {(byte) (0x80 | CURRENT_CHANNEL), RakpHandshake.PRIVILEGE},
            "Get Channel Authentication Capabilities request");
    byte[] d = caps.data();
    if (caps.completionCode() != 0 || d.length < 4 || (d[1] & 0x80) == 0 || (d[3] & 0x02) == 0) {
      throw new BmcException(
          Kind.UNSUPPORTED,
          "BMC "
              + session.bmc()
              + " does not offer IPMI 2.0 (RMCP+) on this channel, only IPMI 1.5, whose logins"
              + " Bulwark never uses (MD5 or a clear-text password): enable IPMI 2.0 / RMCP+ with"
              + " cipher suite 17 on the BMC",
          null);
    }
    List<Offered> offered = cipherSuites(session);
    if (offered == null) {
      return; // The BMC does not list its suites; Open Session will say whether it has ours.
    }
    boolean ours =
        offered.stream()
            .anyMatch(
                o ->
                    o.id() == suite.id
                        && suite.matches(o.authentication(), o.integrity(), o.confidentiality()));
    if (!ours) {
      throw new BmcException(
          Kind.UNSUPPORTED,
          "BMC "
              + session.bmc()
              + " offers only weaker IPMI cipher suites than 17, which Bulwark requires: "
              + (offered.isEmpty()
                  ? "none listed"
                  : offered.stream().map(Offered::toString).collect(Collectors.joining(", ")))
              + ". Enable cipher suite 17 (RAKP-HMAC-SHA256, HMAC-SHA256-128, AES-CBC-128) on the"
              + " BMC's LAN channel (e.g. ipmitool lan set <channel> cipher_privs); no credential"
              + " was sent",
          null);
    }
  }

  /** Reads the channel's cipher suite records; null if the BMC does not answer the command. */
  static List<Offered> cipherSuites(RmcpSession session) throws BmcException {
    java.io.ByteArrayOutputStream records = new java.io.ByteArrayOutputStream();
    for (int index = 0; index < 64; index++) {
      Response r =
          session.sessionless(
              IpmiMessage.NETFN_APP,
              0x54,
              new byte[] {CURRENT_CHANNEL, 0x00, (byte) (0x80 | index)},
              "Get Channel Cipher Suites request");
      if (r.completionCode() != 0 || r.data().length < 1) {
        return index == 0 ? null : parse(records.toByteArray());
      }
      records.write(r.data(), 1, r.data().length - 1);
      if (r.data().length - 1 < 16) {
        break;
      }
    }
    return parse(records.toByteArray());
  }

  /** Parses cipher suite records: C0h id algorithms... or C1h id IANA(3) algorithms... */
  static List<Offered> parse(byte[] r) {
    List<Offered> out = new ArrayList<>();
    int i = 0;
    while (i < r.length) {
      int start = r[i] & 0xff;
      if ((start != 0xc0 && start != 0xc1) || i + 1 >= r.length) {
        i++;
        continue;
      }
      int id = r[i + 1] & 0xff;
      i += start == 0xc0 ? 2 : 5;
      int auth = -1;
      int integ = -1;
      int conf = -1;
      while (i < r.length && (r[i] & 0xc0) != 0xc0) {
        int alg = r[i] & 0x3f;
        switch ((r[i] & 0xc0) >>> 6) {
          case 0 -> auth = auth < 0 ? alg : auth;
          case 1 -> integ = integ < 0 ? alg : integ;
          default -> conf = conf < 0 ? alg : conf;
        }
        i++;
      }
      out.add(new Offered(id, auth, integ, conf));
    }
    return out;
  }
}
