package io.bulwark.bmc.ipmi.internal;

import static io.bulwark.bmc.ipmi.internal.Suite17Session.header;
import static io.bulwark.bmc.ipmi.internal.Suite17Session.hmac;
import static io.bulwark.bmc.ipmi.internal.Suite17Session.le32;
import static io.bulwark.bmc.ipmi.internal.Suite17Session.put32;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TEST DOUBLE of a BMC's LAN channel that speaks IPMI 2.0 RMCP+ with cipher suite 17
 * (RAKP-HMAC-SHA256, HMAC-SHA256-128, AES-CBC-128) on a UDP port of 127.0.0.1. It exists because no
 * real BMC or simulator available here speaks suite 17: OpenIPMI's {@code ipmi_sim} 2.0.33 has only
 * the SHA-1 and MD5 suites. It follows IPMI v2.0 section 13 byte for byte: RMCP/ASF presence ping,
 * Get Channel Authentication Capabilities and Get Channel Cipher Suites outside a session (IPMI 1.5
 * or 2.0 framing), RMCP+ Open Session accepting only suite 17's algorithms, RAKP 1 to 4 with K_UID
 * (the password zero-padded to 20 bytes), SIK, K1 and K2 as section 13.31 derives them and a RAKP 4
 * integrity check value truncated to 16 bytes, then session packets closed by HMAC-SHA256-128 under
 * K1 (over auth type to next header, 0xFF integrity pad) with AES-CBC-128 under the first 16 bytes
 * of K2 (random IV, IPMI confidentiality pad), each session a {@link Suite17Session}; the commands
 * themselves are {@link Suite17Machine}'s. Unknown users get RAKP 2 status "unauthorized name", a
 * wrong RAKP 3 code RAKP 4 "invalid integrity check value", as a real BMC answers.
 *
 * <p>Written independently of the driver (none of RakpHandshake, SessionCrypto, RmcpPackets,
 * IpmiMessage or Wire is used), so that a test of the driver against it checks two implementations
 * of the specification against each other; {@link Suite17Test} checks the double against Debian's
 * {@code ipmitool -C 17} as well. Crypto from JCA provider BCFIPS. One thread serves all datagrams;
 * {@link #events()} records what happened, for the tests.
 */
final class Suite17Bmc implements AutoCloseable {
  static final String USER = "bulwark";
  static final String PASSWORD = "Suite17-Pass-42";

  /** The GUID as sent (SMBIOS byte order of 6a0c8e2b-3f41-4d5e-9a7b-1c2d3e4f5061). */
  static final byte[] GUID = Suite17Machine.hex("2b8e0c6a413f5e4d9a7b1c2d3e4f5061");

  static final String GUID_TEXT = "6a0c8e2b-3f41-4d5e-9a7b-1c2d3e4f5061";

  private static final int ADMINISTRATOR = 0x04;

  /** Get Channel Cipher Suites records: suite 17 alone, or only suites weaker than 17. */
  private static final byte[] SUITE_17_RECORDS = Suite17Machine.hex("c0 11 03 44 81");

  private static final byte[] WEAK_RECORDS =
      Suite17Machine.hex("c0 00 00 40 80 c0 01 01 40 80 c0 02 01 41 80 c0 03 01 41 81");

  private final DatagramSocket socket;
  private final Thread thread;
  private final boolean offersSuite17;
  private final SecureRandom random;
  private final Suite17Machine machine = new Suite17Machine(GUID);
  private final Map<Integer, Suite17Session> sessions = new ConcurrentHashMap<>();
  private final List<String> events = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  private Suite17Bmc(boolean offersSuite17) throws IOException, GeneralSecurityException {
    this.offersSuite17 = offersSuite17;
    this.random = SecureRandom.getInstance("DEFAULT", Suite17Session.PROVIDER);
    this.socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
    this.thread = new Thread(this::serve, "suite17-bmc-" + socket.getLocalPort());
    thread.setDaemon(true);
    thread.start();
  }

  /** A BMC whose channel offers suite 17. */
  static Suite17Bmc start() throws IOException, GeneralSecurityException {
    return new Suite17Bmc(true);
  }

  /** A BMC whose channel lists only suites 0 to 3 (and accepts no Open Session). */
  static Suite17Bmc offeringOnlyWeakerSuites() throws IOException, GeneralSecurityException {
    return new Suite17Bmc(false);
  }

  int port() {
    return socket.getLocalPort();
  }

  Suite17Machine machine() {
    return machine;
  }

  /** What the double saw, in order: "open session 03/04/01", "rakp1 bulwark", "active"... */
  List<String> events() {
    return List.copyOf(events);
  }

  /** Waits up to two seconds for {@code event} (one the console sent without awaiting a reply). */
  boolean awaitEvent(String event) throws InterruptedException {
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (!events.contains(event)) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  /** Sessions open now (established or half-way through RAKP). */
  int openSessions() {
    return sessions.size();
  }

  private void serve() {
    byte[] buffer = new byte[2048];
    while (!closed) {
      DatagramPacket in = new DatagramPacket(buffer, buffer.length);
      try {
        socket.receive(in);
        byte[] d = Arrays.copyOf(in.getData(), in.getLength());
        byte[] reply = answer(d);
        if (reply != null) {
          send(reply, in.getSocketAddress());
        }
      } catch (IOException e) {
        if (!closed) {
          events.add("socket error " + e);
        }
      } catch (GeneralSecurityException | RuntimeException e) {
        events.add("error " + e);
      }
    }
  }

  private void send(byte[] datagram, SocketAddress to) throws IOException {
    socket.send(new DatagramPacket(datagram, datagram.length, to));
  }

  /** Section 13.1: RMCP version 1.0 (06h), reserved, sequence, class (06h ASF, 07h IPMI). */
  private byte[] answer(byte[] d) throws GeneralSecurityException {
    if (d.length < 5 || d[0] != 0x06) {
      return null;
    }
    if (d[3] == 0x06) {
      return pong(d);
    }
    if (d[3] != 0x07) {
      return null;
    }
    int authType = d[4] & 0x0f;
    if (authType == 0x00) {
      return sessionlessV15(d);
    }
    return authType == 0x06 ? v20(d) : null;
  }

  /** ASF presence ping (type 80h) answered with a pong (40h) saying IPMI is supported. */
  private byte[] pong(byte[] d) {
    if (d.length < 12 || (d[8] & 0xff) != 0x80) {
      return null;
    }
    byte[] p = new byte[12 + 16];
    p[0] = 0x06;
    p[2] = (byte) 0xff;
    p[3] = 0x06;
    p[6] = 0x11;
    p[7] = (byte) 0xbe;
    p[8] = 0x40;
    p[9] = d[9];
    p[11] = 0x10;
    p[14] = 0x11;
    p[15] = (byte) 0xbe;
    p[20] = (byte) 0x81; // IPMI supported, ASF 1.0
    events.add("ping");
    return p;
  }

  /** IPMI 1.5 session header (table 13-4), authentication type none, session ID 0 only. */
  private byte[] sessionlessV15(byte[] d) {
    if (d.length < 14 || le32(d, 9) != 0) {
      return null;
    }
    int length = d[13] & 0xff;
    if (d.length < 14 + length) {
      return null;
    }
    byte[] response = sessionless(Arrays.copyOfRange(d, 14, 14 + length));
    if (response == null) {
      return null;
    }
    byte[] p = new byte[14 + response.length];
    p[0] = 0x06;
    p[2] = (byte) 0xff;
    p[3] = 0x07;
    p[13] = (byte) response.length;
    System.arraycopy(response, 0, p, 14, response.length);
    return p;
  }

  /** The two channel requests a console sends before it logs in (and may send inside). */
  private byte[] sessionless(byte[] message) {
    Suite17Request rq = Suite17Request.parse(message);
    if (rq == null) {
      return null;
    }
    byte[] body;
    if (rq.netFn() == 0x06 && rq.cmd() == 0x38) {
      events.add("get channel authentication capabilities");
      // Table 22-15: channel 1; IPMI 2.0 extended data, no IPMI 1.5 login types; non-null user
      // names only, K_G all zero; IPMI 2.0 connections only.
      body = Suite17Machine.hex("00 01 80 04 02 000000 00");
    } else if (rq.netFn() == 0x06 && rq.cmd() == 0x54) {
      body = cipherSuites(rq.data());
    } else {
      body = new byte[] {(byte) 0xd4};
    }
    return rq.response(body);
  }

  /** Get Channel Cipher Suites (table 22-18): 16 bytes of the records per list index. */
  private byte[] cipherSuites(byte[] data) {
    if (data.length != 3) {
      return new byte[] {(byte) 0xc7};
    }
    events.add("get channel cipher suites " + (data[2] & 0x3f));
    if (data[1] != 0x00 || (data[2] & 0x80) == 0) {
      return new byte[] {(byte) 0xcc};
    }
    byte[] records = offersSuite17 ? SUITE_17_RECORDS : WEAK_RECORDS;
    int from = Math.min(records.length, 16 * (data[2] & 0x3f));
    int to = Math.min(records.length, from + 16);
    return Suite17Machine.concat(new byte[] {0x00, 0x01}, Arrays.copyOfRange(records, from, to));
  }

  /** IPMI 2.0 / RMCP+ session header (table 13-8). */
  private byte[] v20(byte[] d) throws GeneralSecurityException {
    if (d.length < 16) {
      return null;
    }
    int payloadType = d[5] & 0x3f;
    boolean encrypted = (d[5] & 0x80) != 0;
    boolean authenticated = (d[5] & 0x40) != 0;
    int sessionId = le32(d, 6);
    int length = (d[14] & 0xff) | (d[15] & 0xff) << 8;
    if (d.length < 16 + length) {
      return null;
    }
    byte[] payload = Arrays.copyOfRange(d, 16, 16 + length);
    if (sessionId == 0) {
      if (encrypted || authenticated) {
        return null;
      }
      return switch (payloadType) {
        case 0x00 -> plain(0x00, 0, sessionless(payload));
        case 0x10 -> plain(0x11, 0, openSession(payload));
        case 0x12 -> rakp1(payload);
        case 0x14 -> rakp3(payload);
        default -> null;
      };
    }
    Suite17Session s = sessions.get(sessionId);
    if (s == null || !s.active() || payloadType != 0x00) {
      events.add("dropped packet for session " + Integer.toHexString(sessionId));
      return null;
    }
    if (!encrypted || !authenticated) {
      events.add("dropped unprotected packet");
      return null;
    }
    byte[] message = s.unseal(d, length, events);
    if (message == null) {
      return null;
    }
    return s.seal(inSession(s, message), random);
  }

  private static byte[] plain(int payloadType, int sessionId, byte[] payload) {
    if (payload == null) {
      return null;
    }
    byte[] p = new byte[16 + payload.length];
    header(p, payloadType, sessionId, 0, payload.length);
    System.arraycopy(payload, 0, p, 16, payload.length);
    return p;
  }

  /** RMCP+ Open Session Request (table 13-16) and Response (table 13-17). */
  private byte[] openSession(byte[] q) {
    if (q.length < 32) {
      return new byte[] {q.length > 0 ? q[0] : 0, 0x12, 0, 0, 0, 0, 0, 0};
    }
    int consoleId = le32(q, 4);
    int auth = algorithm(q, 8, 0x00);
    int integrity = algorithm(q, 16, 0x01);
    int confidentiality = algorithm(q, 24, 0x02);
    events.add(String.format("open session %02x/%02x/%02x", auth, integrity, confidentiality));
    int requested = q[1] & 0x0f;
    int status = 0x00;
    if (!offersSuite17) {
      status = 0x11;
    } else if (auth != 0x03) {
      status = 0x04;
    } else if (integrity != 0x04) {
      status = 0x05;
    } else if (confidentiality != 0x01) {
      status = 0x10;
    } else if (requested > ADMINISTRATOR) {
      status = 0x09;
    }
    byte[] r = new byte[status == 0 ? 36 : 8];
    r[0] = q[0];
    r[1] = (byte) status;
    put32(r, 4, consoleId);
    if (status != 0) {
      return r;
    }
    int bmcId;
    do {
      bmcId = random.nextInt();
    } while (bmcId == 0 || sessions.containsKey(bmcId));
    int max = requested == 0 ? ADMINISTRATOR : requested;
    sessions.put(bmcId, new Suite17Session(consoleId, bmcId, max));
    r[2] = (byte) max;
    put32(r, 8, bmcId);
    System.arraycopy(q, 8, r, 12, 24);
    return r;
  }

  /** The algorithm of one payload of Open Session; -1 if the payload's type or length is off. */
  private static int algorithm(byte[] q, int at, int type) {
    return q[at] == type && q[at + 3] == 0x08 ? q[at + 4] & 0x3f : -1;
  }

  /** RAKP Message 1 (table 13-18) answered by RAKP Message 2 (table 13-19). */
  private byte[] rakp1(byte[] q) throws GeneralSecurityException {
    if (q.length < 28) {
      return null;
    }
    Suite17Session s = sessions.get(le32(q, 4));
    if (s == null) {
      return plain(0x13, 0, new byte[] {q[0], 0x02, 0, 0, 0, 0, 0, 0});
    }
    int nameLength = q[27] & 0xff;
    byte[] error = {q[0], 0, 0, 0, 0, 0, 0, 0};
    put32(error, 4, s.consoleId);
    if (nameLength > 16 || q.length < 28 + nameLength) {
      error[1] = 0x0c;
    } else {
      s.name = Arrays.copyOfRange(q, 28, 28 + nameLength);
      s.role = q[24];
      int privilege = s.role & 0x0f;
      events.add("rakp1 " + new String(s.name, StandardCharsets.UTF_8));
      if (!Arrays.equals(s.name, USER.getBytes(StandardCharsets.UTF_8))) {
        error[1] = 0x0d;
      } else if (privilege == 0 || privilege > ADMINISTRATOR) {
        error[1] = 0x09;
      } else if (privilege > s.maxPrivilege) {
        error[1] = 0x0a;
      }
    }
    if (error[1] != 0) {
      sessions.remove(s.bmcId);
      events.add(String.format("rakp2 status %02x", error[1]));
      return plain(0x13, 0, error);
    }
    s.rm = Arrays.copyOfRange(q, 8, 24);
    s.rc = new byte[16];
    random.nextBytes(s.rc);
    byte[] code =
        hmac(
            kuid(),
            le32Bytes(s.consoleId),
            le32Bytes(s.bmcId),
            s.rm,
            s.rc,
            GUID,
            new byte[] {s.role, (byte) s.name.length},
            s.name);
    byte[] r = Suite17Machine.concat(error, s.rc, GUID, code);
    return plain(0x13, 0, r);
  }

  /** RAKP Message 3 (table 13-20) answered by RAKP Message 4 (table 13-21). */
  private byte[] rakp3(byte[] q) throws GeneralSecurityException {
    if (q.length < 8) {
      return null;
    }
    Suite17Session s = sessions.get(le32(q, 4));
    if (s == null || s.rc == null || s.active()) {
      return plain(0x15, 0, new byte[] {q[0], 0x02, 0, 0, 0, 0, 0, 0});
    }
    byte[] r = new byte[8];
    r[0] = q[0];
    put32(r, 4, s.consoleId);
    if (q[1] != 0) {
      sessions.remove(s.bmcId);
      events.add(String.format("rakp3 abort %02x", q[1]));
      return null;
    }
    byte[] kuid = kuid();
    byte[] roleAndName = Suite17Machine.concat(new byte[] {s.role, (byte) s.name.length}, s.name);
    byte[] expected = hmac(kuid, s.rc, le32Bytes(s.consoleId), roleAndName);
    if (q.length != 8 + expected.length
        || !MessageDigest.isEqual(expected, Arrays.copyOfRange(q, 8, q.length))) {
      sessions.remove(s.bmcId);
      events.add("rakp4 status 0f");
      r[1] = 0x0f;
      return plain(0x15, 0, r);
    }
    // Section 13.31: no K_G is set on this BMC, so SIK is keyed with K_UID.
    byte[] sik = hmac(kuid, s.rm, s.rc, roleAndName);
    byte[] icv = Arrays.copyOf(hmac(sik, s.rm, le32Bytes(s.bmcId), GUID), 16);
    s.activate(sik);
    events.add("active");
    return plain(0x15, 0, Suite17Machine.concat(r, icv));
  }

  /** A request inside an established session: session commands here, the rest the machine's. */
  private byte[] inSession(Suite17Session s, byte[] message) {
    Suite17Request rq = Suite17Request.parse(message);
    if (rq == null) {
      events.add("dropped malformed IPMI message");
      return null;
    }
    events.add(String.format("command %02x/%02x", rq.netFn(), rq.cmd()));
    if (rq.netFn() == 0x06 && rq.cmd() == 0x3b) {
      return rq.response(setPrivilege(s, rq.data()));
    }
    if (rq.netFn() == 0x06 && rq.cmd() == 0x3c) {
      byte[] body = closeSession(s, rq.data());
      return rq.response(body);
    }
    if (rq.netFn() == 0x06 && (rq.cmd() == 0x38 || rq.cmd() == 0x54)) {
      return sessionless(message);
    }
    if (s.privilege < Suite17Machine.privilegeNeeded(rq.netFn(), rq.cmd())) {
      return rq.response(new byte[] {(byte) 0xd4});
    }
    return rq.response(machine.execute(rq.netFn(), rq.cmd(), rq.data()));
  }

  /** Set Session Privilege Level (table 22-22): at most the RAKP 1 role and the user's limit. */
  private byte[] setPrivilege(Suite17Session s, byte[] data) {
    if (data.length != 1) {
      return new byte[] {(byte) 0xc7};
    }
    int wanted = data[0] & 0x0f;
    if (wanted != 0) {
      if (wanted > ADMINISTRATOR) {
        return new byte[] {(byte) 0x80};
      }
      if (wanted > (s.role & 0x0f)) {
        return new byte[] {(byte) 0x81};
      }
      s.privilege = wanted;
    }
    events.add("privilege " + s.privilege);
    return new byte[] {0x00, (byte) s.privilege};
  }

  /** Close Session (table 22-25): this session (its ID, or 0), answered inside it, then gone. */
  private byte[] closeSession(Suite17Session s, byte[] data) {
    if (data.length < 4) {
      return new byte[] {(byte) 0xc7};
    }
    int id = le32(data, 0);
    if (id != s.bmcId && id != 0) {
      return new byte[] {(byte) 0x87};
    }
    sessions.remove(s.bmcId);
    events.add("closed");
    return new byte[] {0x00};
  }

  private static byte[] kuid() {
    return Arrays.copyOf(PASSWORD.getBytes(StandardCharsets.UTF_8), 20);
  }

  private static byte[] le32Bytes(int v) {
    byte[] b = new byte[4];
    put32(b, 0, v);
    return b;
  }

  @Override
  public void close() {
    closed = true;
    socket.close();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
