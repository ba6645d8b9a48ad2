package io.bulwark.pxe.internal;

import java.io.ByteArrayOutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One BOOTP/DHCPv4 message (RFC 2131 section 2, options RFC 2132), as read from or written to the
 * wire. Options are kept by code, in the order they came; a code that occurs more than once is
 * concatenated (RFC 3396), and options carried in {@code sname} or {@code file} under option
 * overload (option 52) are read too. Immutable after parsing; the builder methods of a reply return
 * a new packet.
 */
final class DhcpPacket {
  static final int BOOTREQUEST = 1;
  static final int BOOTREPLY = 2;
  static final int HEADER = 236;
  static final int MAGIC = 0x63825363;

  /** The smallest message a BOOTP relay or client must accept (RFC 1542): replies are padded. */
  static final int MIN_SIZE = 300;

  /** The largest message this server reads: an Ethernet frame's UDP payload. */
  static final int MAX_SIZE = 1472;

  // Option codes (RFC 2132, RFC 4578, iPXE)
  static final int PAD = 0;
  static final int SUBNET_MASK = 1;
  static final int ROUTER = 3;
  static final int DNS = 6;
  static final int HOSTNAME = 12;
  static final int DOMAIN = 15;
  static final int BROADCAST = 28;
  static final int VENDOR_SPECIFIC = 43;
  static final int REQUESTED_IP = 50;
  static final int LEASE_TIME = 51;
  static final int OVERLOAD = 52;
  static final int MESSAGE_TYPE = 53;
  static final int SERVER_ID = 54;
  static final int PARAMETER_LIST = 55;
  static final int MESSAGE = 56;
  static final int MAX_MESSAGE_SIZE = 57;
  static final int RENEWAL_TIME = 58;
  static final int REBINDING_TIME = 59;
  static final int VENDOR_CLASS = 60;
  static final int CLIENT_ID = 61;
  static final int TFTP_SERVER = 66;
  static final int BOOTFILE = 67;
  static final int USER_CLASS = 77;
  static final int CLIENT_ARCH = 93;
  static final int CLIENT_NDI = 94;
  static final int CLIENT_UUID = 97;
  static final int IPXE_ENCAPSULATED = 175;
  static final int END = 255;

  // Message types (option 53)
  static final int DISCOVER = 1;
  static final int OFFER = 2;
  static final int REQUEST = 3;
  static final int DECLINE = 4;
  static final int ACK = 5;
  static final int NAK = 6;
  static final int RELEASE = 7;
  static final int INFORM = 8;

  final int op;
  final int htype;
  final int hlen;
  final int hops;
  final int xid;
  final int secs;
  final int flags;
  final int ciaddr;
  final int yiaddr;
  final int siaddr;
  final int giaddr;
  private final byte[] chaddr;
  final String sname;
  final String file;
  private final Map<Integer, byte[]> options;

  private DhcpPacket(
      int op,
      int htype,
      int hlen,
      int hops,
      int xid,
      int secs,
      int flags,
      int ciaddr,
      int yiaddr,
      int siaddr,
      int giaddr,
      byte[] chaddr,
      String sname,
      String file,
      Map<Integer, byte[]> options) {
    this.op = op;
    this.htype = htype;
    this.hlen = hlen;
    this.hops = hops;
    this.xid = xid;
    this.secs = secs;
    this.flags = flags;
    this.ciaddr = ciaddr;
    this.yiaddr = yiaddr;
    this.siaddr = siaddr;
    this.giaddr = giaddr;
    this.chaddr = chaddr;
    this.sname = sname;
    this.file = file;
    this.options = options;
  }

  /**
   * Reads a message of {@code length} bytes from {@code data}.
   *
   * @throws MalformedPacketException naming what is wrong, if it is not a well-formed DHCP message
   */
  static DhcpPacket parse(byte[] data, int length) throws MalformedPacketException {
    if (length < HEADER + 4) {
      throw new MalformedPacketException("short", length + " bytes, fewer than a DHCP header");
    }
    if (length > MAX_SIZE) {
      throw new MalformedPacketException("long", length + " bytes, more than " + MAX_SIZE);
    }
    ByteBuffer b = ByteBuffer.wrap(data, 0, length);
    int op = b.get() & 0xff;
    if (op != BOOTREQUEST && op != BOOTREPLY) {
      throw new MalformedPacketException("op", "op " + op + " is neither request nor reply");
    }
    int htype = b.get() & 0xff;
    int hlen = b.get() & 0xff;
    if (hlen > 16) {
      throw new MalformedPacketException("hlen", "hardware address length " + hlen + " > 16");
    }
    int hops = b.get() & 0xff;
    int xid = b.getInt();
    int secs = b.getShort() & 0xffff;
    int flags = b.getShort() & 0xffff;
    int ciaddr = b.getInt();
    int yiaddr = b.getInt();
    int siaddr = b.getInt();
    int giaddr = b.getInt();
    byte[] chaddr = new byte[16];
    b.get(chaddr);
    byte[] sname = new byte[64];
    b.get(sname);
    byte[] file = new byte[128];
    b.get(file);
    if (b.getInt() != MAGIC) {
      throw new MalformedPacketException("cookie", "no DHCP magic cookie (a plain BOOTP message)");
    }
    Map<Integer, byte[]> options = new LinkedHashMap<>();
    readOptions(data, b.position(), length, options, "options");
    byte[] overload = options.get(OVERLOAD);
    boolean fileOptions = false;
    boolean snameOptions = false;
    if (overload != null) {
      if (overload.length != 1 || overload[0] < 1 || overload[0] > 3) {
        throw new MalformedPacketException("overload", "option 52 is not 1, 2 or 3");
      }
      fileOptions = (overload[0] & 1) != 0;
      snameOptions = (overload[0] & 2) != 0;
      if (fileOptions) {
        readOptions(file, 0, file.length, options, "file");
      }
      if (snameOptions) {
        readOptions(sname, 0, sname.length, options, "sname");
      }
    }
    if (options.containsKey(MESSAGE_TYPE)) {
      byte[] type = options.get(MESSAGE_TYPE);
      if (type.length != 1 || type[0] < DISCOVER || type[0] > INFORM) {
        throw new MalformedPacketException("type", "option 53 is not a DHCP message type");
      }
    }
    return new DhcpPacket(
        op,
        htype,
        hlen,
        hops,
        xid,
        secs,
        flags,
        ciaddr,
        yiaddr,
        siaddr,
        giaddr,
        chaddr,
        snameOptions ? "" : cString(sname),
        fileOptions ? "" : cString(file),
        Collections.unmodifiableMap(options));
  }

  private static void readOptions(
      byte[] data, int from, int to, Map<Integer, byte[]> into, String where)
      throws MalformedPacketException {
    int i = from;
    while (i < to) {
      int code = data[i++] & 0xff;
      if (code == PAD) {
        continue;
      }
      if (code == END) {
        return;
      }
      if (i >= to) {
        throw new MalformedPacketException(
            "option", "option " + code + " in " + where + " cut off");
      }
      int len = data[i++] & 0xff;
      if (i + len > to) {
        throw new MalformedPacketException(
            "option",
            "option " + code + " in " + where + " runs " + (i + len - to) + " bytes over");
      }
      byte[] value = Arrays.copyOfRange(data, i, i + len);
      into.merge(code, value, DhcpPacket::concat);
      i += len;
    }
    // RFC 2131 wants an end option; many clients pad to the end instead: both are accepted.
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  private static String cString(byte[] bytes) {
    int n = 0;
    while (n < bytes.length && bytes[n] != 0) {
      n++;
    }
    return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
  }

  /** Returns the message type (option 53), or 0 for a plain BOOTP message. */
  int messageType() {
    byte[] t = options.get(MESSAGE_TYPE);
    return t == null ? 0 : t[0];
  }

  /** Returns the value of option {@code code}, or null. */
  byte[] option(int code) {
    byte[] v = options.get(code);
    return v == null ? null : v.clone();
  }

  boolean has(int code) {
    return options.containsKey(code);
  }

  /** Returns the option's value as text (ISO-8859-1), or null. */
  String text(int code) {
    byte[] v = options.get(code);
    return v == null ? null : new String(v, StandardCharsets.ISO_8859_1);
  }

  /** Returns a 4-byte option as an address, or 0 if it is absent or not 4 bytes long. */
  int address(int code) {
    byte[] v = options.get(code);
    return v == null || v.length != 4 ? 0 : ByteBuffer.wrap(v).getInt();
  }

  Map<Integer, byte[]> options() {
    return options;
  }

  /** Returns the hardware address as lower-case hex pairs with colons, e.g. 52:54:00:12:34:56. */
  String mac() {
    StringBuilder s = new StringBuilder(hlen * 3);
    for (int i = 0; i < Math.min(hlen, 16); i++) {
      if (i > 0) {
        s.append(':');
      }
      s.append(Character.forDigit((chaddr[i] >> 4) & 0xf, 16));
      s.append(Character.forDigit(chaddr[i] & 0xf, 16));
    }
    return s.toString();
  }

  byte[] chaddr() {
    return chaddr.clone();
  }

  boolean broadcastFlag() {
    return (flags & 0x8000) != 0;
  }

  /** Starts a reply to this request: same xid, flags, giaddr and chaddr, no options. */
  Builder reply() {
    Builder r = new Builder();
    r.op = BOOTREPLY;
    r.htype = htype;
    r.hlen = hlen;
    r.xid = xid;
    r.flags = flags;
    r.giaddr = giaddr;
    r.chaddr = chaddr.clone();
    return r;
  }

  /** Returns a builder for a client's request (used by tests and the benchmark's clients). */
  static Builder request(byte[] mac, int xid) {
    Builder r = new Builder();
    r.op = BOOTREQUEST;
    r.htype = 1;
    r.hlen = mac.length;
    r.xid = xid;
    System.arraycopy(mac, 0, r.chaddr, 0, mac.length);
    return r;
  }

  /** Writes a message field by field; options in the order they are added. */
  static final class Builder {
    int op;
    int htype = 1;
    int hlen = 6;
    int hops;
    int xid;
    int secs;
    int flags;
    int ciaddr;
    int yiaddr;
    int siaddr;
    int giaddr;
    byte[] chaddr = new byte[16];
    String sname = "";
    String file = "";
    private final Map<Integer, byte[]> options = new LinkedHashMap<>();

    Builder type(int type) {
      return option(MESSAGE_TYPE, new byte[] {(byte) type});
    }

    Builder option(int code, byte[] value) {
      options.put(code, value.clone());
      return this;
    }

    Builder option(int code, String value) {
      return option(code, value.getBytes(StandardCharsets.ISO_8859_1));
    }

    Builder address(int code, int... addresses) {
      ByteBuffer b = ByteBuffer.allocate(4 * addresses.length);
      for (int a : addresses) {
        b.putInt(a);
      }
      return option(code, b.array());
    }

    Builder seconds(int code, long value) {
      return option(code, ByteBuffer.allocate(4).putInt((int) value).array());
    }

    /** Returns the message as sent: header, cookie, options, end, padded to 300 bytes. */
    byte[] encode() {
      ByteArrayOutputStream out = new ByteArrayOutputStream(MIN_SIZE);
      ByteBuffer h = ByteBuffer.allocate(HEADER + 4);
      h.put((byte) op).put((byte) htype).put((byte) hlen).put((byte) hops);
      h.putInt(xid).putShort((short) secs).putShort((short) flags);
      h.putInt(ciaddr).putInt(yiaddr).putInt(siaddr).putInt(giaddr);
      h.put(chaddr, 0, 16);
      h.put(field(sname, 64));
      h.put(field(file, 128));
      h.putInt(MAGIC);
      out.writeBytes(h.array());
      for (Map.Entry<Integer, byte[]> o : options.entrySet()) {
        byte[] v = o.getValue();
        // Values over 255 bytes are split into several options of the same code (RFC 3396).
        int at = 0;
        do {
          int n = Math.min(255, v.length - at);
          out.write(o.getKey());
          out.write(n);
          out.write(v, at, n);
          at += n;
        } while (at < v.length);
      }
      out.write(END);
      while (out.size() < MIN_SIZE) {
        out.write(PAD);
      }
      return out.toByteArray();
    }

    private static byte[] field(String text, int size) {
      byte[] b = new byte[size];
      byte[] t = text.getBytes(StandardCharsets.ISO_8859_1);
      if (t.length >= size) {
        throw new IllegalArgumentException(
            "'" + text + "' does not fit in " + (size - 1) + " bytes");
      }
      System.arraycopy(t, 0, b, 0, t.length);
      return b;
    }
  }

  /** Returns {@code address} as an int in network order. */
  static int ipv4(InetAddress address) {
    if (!(address instanceof Inet4Address)) {
      throw new IllegalArgumentException(address + " is not an IPv4 address");
    }
    return ByteBuffer.wrap(address.getAddress()).getInt();
  }

  static int ipv4(String dotted) {
    try {
      return ipv4(InetAddress.getByName(dotted));
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(dotted + " is not an IPv4 address", e);
    }
  }

  static String dotted(int address) {
    return ((address >>> 24) & 0xff)
        + "."
        + ((address >>> 16) & 0xff)
        + "."
        + ((address >>> 8) & 0xff)
        + "."
        + (address & 0xff);
  }
}
