package io.bulwark.pxe.internal;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;

/**
 * A plain JDK datagram socket bound to one address: for a server behind DHCP relays (which unicast
 * to it) and for the tests and benchmark on loopback. It cannot be tied to an interface; a server
 * that must hear broadcasts on the provisioning interface only uses {@link LinkSocket}.
 */
final class ChannelSocket implements PacketSocket {
  private final DatagramSocket socket;

  ChannelSocket(InetSocketAddress bind) throws IOException {
    socket = new DatagramSocket(null);
    socket.setReuseAddress(true);
    socket.setBroadcast(true);
    socket.setSoTimeout(500);
    socket.setReceiveBufferSize(1 << 20);
    socket.bind(bind);
  }

  @Override
  public int receive(byte[] buffer, InetSocketAddress[] from) throws IOException {
    DatagramPacket p = new DatagramPacket(buffer, buffer.length);
    socket.receive(p);
    from[0] = (InetSocketAddress) p.getSocketAddress();
    return p.getLength();
  }

  @Override
  public void send(byte[] data, InetSocketAddress to) throws IOException {
    socket.send(new DatagramPacket(data, data.length, to));
  }

  @Override
  public int port() {
    return socket.getLocalPort();
  }

  @Override
  public void close() {
    socket.close();
  }
}
