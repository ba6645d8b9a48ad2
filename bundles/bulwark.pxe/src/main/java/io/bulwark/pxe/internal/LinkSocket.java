package io.bulwark.pxe.internal;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.ptr.IntByReference;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A UDP socket tied to one network interface with {@code SO_BINDTODEVICE} (Linux), through libc:
 * the DHCP server binds 0.0.0.0:67 to hear clients' broadcasts, and this keeps it deaf to every
 * other interface of the appliance (the admin network never sees a DHCP answer from it) and sends
 * its broadcast replies out of the provisioning interface. Needs root or {@code CAP_NET_RAW} and
 * {@code CAP_NET_BIND_SERVICE}. The JDK has no way to set this option, hence libc.
 */
final class LinkSocket implements PacketSocket {
  private static final int AF_INET = 2;
  private static final int SOCK_DGRAM = 2;
  private static final int SOL_SOCKET = 1;
  private static final int SO_REUSEADDR = 2;
  private static final int SO_BROADCAST = 6;
  private static final int SO_RCVBUF = 8;
  private static final int SO_RCVTIMEO = 20;
  private static final int SO_BINDTODEVICE = 25;
  private static final int EAGAIN = 11;
  private static final int EINTR = 4;

  /** The libc calls this socket needs; errors come back as {@link LastErrorException}. */
  interface LibC extends Library {
    int socket(int domain, int type, int protocol) throws LastErrorException;

    int setsockopt(int fd, int level, int name, com.sun.jna.Pointer value, int length)
        throws LastErrorException;

    int bind(int fd, byte[] address, int length) throws LastErrorException;

    long recvfrom(int fd, byte[] buffer, long length, int flags, byte[] from, IntByReference size)
        throws LastErrorException;

    long sendto(int fd, byte[] buffer, long length, int flags, byte[] to, int size)
        throws LastErrorException;

    int close(int fd) throws LastErrorException;
  }

  private static final class Holder {
    static final LibC C = Native.load("c", LibC.class);
  }

  private final int fd;
  private final int port;
  private final String device;

  LinkSocket(String device, int port) throws IOException {
    this.device = device;
    this.port = port;
    LibC c = Holder.C;
    int s;
    try {
      s = c.socket(AF_INET, SOCK_DGRAM, 0);
    } catch (LastErrorException e) {
      throw new IOException("cannot open a UDP socket: " + e.getMessage(), e);
    }
    fd = s;
    try {
      setInt(SO_REUSEADDR, 1);
      setInt(SO_BROADCAST, 1);
      setInt(SO_RCVBUF, 1 << 20);
      Memory timeout = new Memory(16);
      timeout.setLong(0, 0);
      timeout.setLong(8, 500_000);
      c.setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, timeout, 16);
      byte[] name = (device + "\0").getBytes(StandardCharsets.US_ASCII);
      Memory dev = new Memory(name.length);
      dev.write(0, name, 0, name.length);
      try {
        c.setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, dev, name.length);
      } catch (LastErrorException e) {
        throw new IOException(
            "cannot tie the DHCP socket to interface "
                + device
                + " ("
                + e.getMessage()
                + "): check that the interface exists and that Bulwark runs as root or with"
                + " CAP_NET_RAW",
            e);
      }
      try {
        c.bind(
            fd, sockaddr(new InetSocketAddress(InetAddress.getByAddress(new byte[4]), port)), 16);
      } catch (LastErrorException e) {
        throw new IOException(
            "cannot listen on UDP port "
                + port
                + " of "
                + device
                + " ("
                + e.getMessage()
                + "): another DHCP server (dnsmasq, isc-dhcp-server) may hold it, or Bulwark lacks"
                + " CAP_NET_BIND_SERVICE",
            e);
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private void setInt(int option, int value) {
    Memory m = new Memory(4);
    m.setInt(0, value);
    Holder.C.setsockopt(fd, SOL_SOCKET, option, m, 4);
  }

  static byte[] sockaddr(InetSocketAddress a) {
    byte[] s = new byte[16];
    s[0] = AF_INET; // sa_family in host order (little-endian on the machines Bulwark runs on)
    s[2] = (byte) (a.getPort() >>> 8);
    s[3] = (byte) a.getPort();
    System.arraycopy(a.getAddress().getAddress(), 0, s, 4, 4);
    return s;
  }

  @Override
  public int receive(byte[] buffer, InetSocketAddress[] from) throws IOException {
    byte[] address = new byte[16];
    IntByReference size = new IntByReference(16);
    long n;
    try {
      n = Holder.C.recvfrom(fd, buffer, buffer.length, 0, address, size);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == EAGAIN || e.getErrorCode() == EINTR) {
        throw new SocketTimeoutException("no datagram within the timeout");
      }
      throw new IOException("receive on " + device + " failed: " + e.getMessage(), e);
    }
    int port = ((address[2] & 0xff) << 8) | (address[3] & 0xff);
    byte[] ip = {address[4], address[5], address[6], address[7]};
    from[0] = new InetSocketAddress(InetAddress.getByAddress(ip), port);
    return (int) n;
  }

  @Override
  public void send(byte[] data, InetSocketAddress to) throws IOException {
    try {
      Holder.C.sendto(fd, data, data.length, 0, sockaddr(to), 16);
    } catch (LastErrorException e) {
      throw new IOException("send to " + to + " on " + device + " failed: " + e.getMessage(), e);
    }
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public void close() {
    try {
      Holder.C.close(fd);
    } catch (LastErrorException e) {
      // already closed
    }
  }
}
