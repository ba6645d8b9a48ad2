package io.bulwark.pxe.internal;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;

/** A UDP socket as the DHCP server uses it: blocking receive with a timeout, send to anywhere. */
interface PacketSocket extends Closeable {

  /**
   * Receives one datagram into {@code buffer}; returns its length and sets {@code from[0]}.
   *
   * @throws SocketTimeoutException if none came within the socket's timeout
   */
  int receive(byte[] buffer, InetSocketAddress[] from) throws IOException;

  void send(byte[] data, InetSocketAddress to) throws IOException;

  /** Returns the local port (for a server bound to port 0 in tests). */
  int port();
}
