package io.bulwark.notify.syslog.internal;

import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.DeliveryException;
import io.bulwark.notify.api.Notification;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.List;

/**
 * Sends syslog messages as UDP datagrams (RFC 5426), one message each, cut at 2,048 bytes (the size
 * every receiver must take). UDP cannot tell whether anything arrived: allowed only where an
 * administrator accepts that.
 */
final class DatagramSender implements ChannelSender {
  static final int MAX_DATAGRAM = 2048;

  private final String host;
  private final int port;
  private final SyslogMessage format;

  DatagramSender(String host, int port, SyslogMessage format) {
    this.host = host;
    this.port = port;
    this.format = format;
  }

  @Override
  public void send(List<Notification> batch) throws DeliveryException {
    try (DatagramSocket socket = new DatagramSocket()) {
      InetAddress address = InetAddress.getByName(host);
      for (Notification n : batch) {
        byte[] msg = format.encode(n);
        socket.send(new DatagramPacket(msg, Math.min(msg.length, MAX_DATAGRAM), address, port));
      }
    } catch (IOException e) {
      throw new DeliveryException(
          "the syslog receiver udp://" + host + ":" + port + ": " + StreamSender.describe(e), e);
    }
  }
}
