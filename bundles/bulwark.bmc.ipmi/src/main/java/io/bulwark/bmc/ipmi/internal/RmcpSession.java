package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.bmc.ipmi.internal.IpmiMessage.Response;
import java.security.GeneralSecurityException;

/**
 * One RMCP+ session with a BMC, over one {@link LanChannel}: before {@link RakpHandshake} has
 * established it, only session-less requests in IPMI 1.5 framing and the plain Open Session and
 * RAKP payloads; afterwards, IPMI commands encrypted and integrity-protected with the session's
 * keys, each with the next session sequence number and request sequence number. Used by one thread
 * at a time.
 */
final class RmcpSession implements AutoCloseable {
  private final LanChannel channel;
  private SessionCrypto crypto;
  private int consoleId;
  private int bmcId;
  private int sessionSeq;
  private int rqSeq;

  RmcpSession(LanChannel channel) {
    this.channel = channel;
  }

  String bmc() {
    return channel.bmc();
  }

  LanChannel channel() {
    return channel;
  }

  void established(int consoleId, int bmcId, SessionCrypto crypto) {
    this.consoleId = consoleId;
    this.bmcId = bmcId;
    this.crypto = crypto;
  }

  boolean active() {
    return crypto != null;
  }

  /** Sends a request outside any session (IPMI 1.5 framing, no authentication). */
  Response sessionless(int netFn, int command, byte[] data, String what) throws BmcException {
    int seq = nextRqSeq();
    byte[] packet = RmcpPackets.v15(IpmiMessage.request(netFn, 0, seq, command, data));
    return channel.exchange(
        packet,
        d -> {
          RmcpPackets.Packet p = RmcpPackets.parse(d, null);
          return answers(p, netFn, seq, command);
        },
        what);
  }

  /**
   * Sends a command inside the session and returns its response data; a completion code other than
   * success is a {@link BmcException} naming {@code what} and the code.
   */
  byte[] command(int netFn, int command, byte[] data, String what) throws BmcException {
    return command(0, netFn, command, data, what);
  }

  byte[] command(int lun, int netFn, int command, byte[] data, String what) throws BmcException {
    Response r = send(lun, netFn, command, data, what);
    if (r.completionCode() != 0) {
      throw failed(what, r.completionCode());
    }
    return r.data();
  }

  /** Sends a command inside the session and returns the response whatever its completion code. */
  Response send(int lun, int netFn, int command, byte[] data, String what) throws BmcException {
    if (crypto == null) {
      throw new IllegalStateException("no session");
    }
    int seq = nextRqSeq();
    // The session sequence number starts at 1 and skips 0 when it wraps (section 13.14).
    sessionSeq = sessionSeq + 1 == 0 ? 1 : sessionSeq + 1;
    byte[] packet;
    try {
      packet =
          RmcpPackets.v20(
              RmcpPackets.PAYLOAD_IPMI,
              bmcId,
              sessionSeq,
              IpmiMessage.request(netFn, lun, seq, command, data),
              crypto);
    } catch (GeneralSecurityException e) {
      throw new BmcException(
          Kind.PROTOCOL, "the " + what + " for BMC " + bmc() + " cannot be encrypted: " + e, e);
    }
    return channel.exchange(
        packet,
        d -> {
          RmcpPackets.Packet p = RmcpPackets.parse(d, crypto);
          return p.sessionId() == consoleId ? answers(p, netFn, seq, command) : null;
        },
        what);
  }

  BmcException failed(String what, int cc) {
    return new BmcException(
        IpmiCodes.completionKind(cc),
        "BMC "
            + bmc()
            + " refused the "
            + what
            + String.format(": %s (completion code 0x%02x)", IpmiCodes.completion(cc), cc),
        null);
  }

  private static Response answers(RmcpPackets.Packet p, int netFn, int seq, int command)
      throws Wire.MalformedException {
    if (p.payloadType() != RmcpPackets.PAYLOAD_IPMI) {
      return null;
    }
    Response r = IpmiMessage.response(p.payload());
    return r.netFn() == netFn && r.rqSeq() == seq && r.command() == command ? r : null;
  }

  private int nextRqSeq() {
    rqSeq = (rqSeq + 1) & 0x3f;
    return rqSeq;
  }

  /** Closes the session on the BMC (best effort, one try) and the socket; never throws. */
  @Override
  public void close() {
    if (crypto != null) {
      try {
        byte[] id = new byte[4];
        Wire.put32(id, 0, bmcId);
        command(IpmiMessage.NETFN_APP, 0x3c, id, "Close Session request");
      } catch (BmcException e) {
        // The BMC drops an idle session by itself after its timeout.
      }
      crypto = null;
    }
    channel.close();
  }
}
