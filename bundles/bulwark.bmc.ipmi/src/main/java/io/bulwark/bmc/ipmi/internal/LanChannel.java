package io.bulwark.bmc.ipmi.internal;

import io.bulwark.api.bmc.BmcException;
import io.bulwark.api.bmc.BmcException.Kind;
import io.bulwark.bmc.ipmi.internal.Wire.MalformedException;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Arrays;

/**
 * The UDP socket of one connection to one BMC: sends a request and waits for the datagram that
 * answers it, sending the very same bytes again (same session and request sequence numbers, as
 * ipmitool does) each time {@code timeout} passes without one, {@code retries} times. Datagrams
 * that are well formed but answer something else (a late reply to an earlier try) are skipped; a
 * malformed one ends the exchange as a protocol failure.
 */
final class LanChannel implements AutoCloseable {
  private final String bmc;
  private final DatagramSocket socket;
  private final Duration timeout;
  private final int retries;
  private final byte[] buffer = new byte[4096];

  /** What a datagram answers: the value, or null when it answers something else. */
  @FunctionalInterface
  interface Match<T> {
    T answer(byte[] datagram) throws MalformedException, GeneralSecurityException;
  }

  LanChannel(String bmc, String host, int port, Duration timeout, int retries) throws BmcException {
    this.bmc = bmc;
    this.timeout = timeout;
    this.retries = retries;
    InetAddress address;
    try {
      address = InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new BmcException(
          Kind.UNREACHABLE,
          "BMC " + bmc + " cannot be found: the host name " + host + " does not resolve",
          e);
    }
    try {
      socket = new DatagramSocket();
      socket.connect(new InetSocketAddress(address, port));
    } catch (IOException e) {
      throw new BmcException(
          Kind.UNREACHABLE, "BMC " + bmc + " cannot be reached: " + e.getMessage(), e);
    }
  }

  String bmc() {
    return bmc;
  }

  /** Sends {@code request} until {@code match} accepts a datagram; {@code what} names it. */
  <T> T exchange(byte[] request, Match<T> match, String what) throws BmcException {
    try {
      for (int attempt = 0; attempt <= retries; attempt++) {
        socket.send(new DatagramPacket(request, request.length));
        long deadline = System.nanoTime() + timeout.toNanos();
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
          socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
          DatagramPacket in = new DatagramPacket(buffer, buffer.length);
          try {
            socket.receive(in);
          } catch (SocketTimeoutException e) {
            break;
          }
          T answer = match.answer(Arrays.copyOf(in.getData(), in.getLength()));
          if (answer != null) {
            return answer;
          }
        }
      }
    } catch (PortUnreachableException e) {
      throw new BmcException(
          Kind.UNREACHABLE,
          "BMC "
              + bmc
              + " refused the "
              + what
              + ": nothing listens on that UDP port (ICMP port"
              + " unreachable); check the address and port set for it and that IPMI over LAN is"
              + " enabled",
          e);
    } catch (IOException e) {
      throw new BmcException(
          Kind.UNREACHABLE, "BMC " + bmc + " cannot be reached: " + e.getMessage(), e);
    } catch (MalformedException e) {
      throw new BmcException(
          Kind.PROTOCOL,
          "BMC " + bmc + " answered the " + what + " with a malformed packet: " + e.getMessage(),
          e);
    } catch (GeneralSecurityException e) {
      throw new BmcException(
          Kind.PROTOCOL,
          "BMC " + bmc + " answered the " + what + " with a packet that cannot be decrypted: " + e,
          e);
    }
    throw new BmcException(
        Kind.TIMEOUT,
        "BMC "
            + bmc
            + " did not answer the "
            + what
            + " within "
            + timeout.toMillis() * (retries + 1L)
            + " ms ("
            + (retries + 1)
            + " tries over UDP): check that it is powered and reachable and that IPMI over LAN is"
            + " enabled",
        null);
  }

  /** Sends {@code datagram} once without waiting for an answer (best effort). */
  void sendOnly(byte[] datagram) {
    try {
      socket.send(new DatagramPacket(datagram, datagram.length));
    } catch (IOException e) {
      // Best effort only: the BMC drops the half-open session by itself.
    }
  }

  @Override
  public void close() {
    socket.close();
  }
}
