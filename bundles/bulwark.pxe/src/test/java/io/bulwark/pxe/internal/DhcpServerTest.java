package io.bulwark.pxe.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.store.internal.MapDbRecordStore;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's socket loop over real UDP on loopback: the clients' socket stands for the subnet's
 * broadcast domain (the server is told to send its broadcasts there). A real DHCP client on a real
 * interface is in {@link DhcpNetnsTest}.
 */
class DhcpServerTest {
  @TempDir Path dir;
  MapDbRecordStore store;
  DhcpServer server;
  DatagramSocket clients;
  InetSocketAddress serverAddress;

  @BeforeEach
  void start() throws Exception {
    store = Stores.open(dir);
    clients = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
    clients.setSoTimeout(2000);
    DhcpSettings s = Stores.subnet(false, 8088);
    DhcpResponder responder =
        new DhcpResponder(s, new LeaseBook(store, s), n -> true, Clock.systemUTC());
    server =
        new DhcpServer(
            responder,
            new InetSocketAddress("127.0.0.1", 0),
            clients.getLocalPort(),
            new ChannelSocket(new InetSocketAddress("127.0.0.1", 0)));
    serverAddress = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port(0));
  }

  @AfterEach
  void stop() {
    server.close();
    clients.close();
    store.close();
  }

  private void send(byte[] data) throws Exception {
    clients.send(new DatagramPacket(data, data.length, serverAddress));
  }

  /** Receives replies until one for {@code xid} comes; null if none within 2 s. */
  private DhcpPacket receive(int xid) throws Exception {
    byte[] buf = new byte[1500];
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (System.nanoTime() < deadline) {
      DatagramPacket p = new DatagramPacket(buf, buf.length);
      try {
        clients.receive(p);
      } catch (SocketTimeoutException e) {
        return null;
      }
      DhcpPacket reply = DhcpPacket.parse(buf, p.getLength());
      if (reply.xid == xid) {
        return reply;
      }
    }
    return null;
  }

  @Test
  void aClientGetsItsLeaseOverUdp() throws Exception {
    send(
        DhcpResponderTest.pxe(DhcpResponderTest.mac(1), 77, DhcpPacket.DISCOVER, 0, true).encode());
    DhcpPacket offer = receive(77);
    assertThat(offer.messageType()).isEqualTo(DhcpPacket.OFFER);

    send(
        DhcpResponderTest.pxe(DhcpResponderTest.mac(1), 78, DhcpPacket.REQUEST, 0, true)
            .address(DhcpPacket.REQUESTED_IP, offer.yiaddr)
            .address(DhcpPacket.SERVER_ID, offer.address(DhcpPacket.SERVER_ID))
            .encode());
    DhcpPacket ack = receive(78);

    assertThat(ack.messageType()).isEqualTo(DhcpPacket.ACK);
    assertThat(ack.file).isEqualTo("http://10.77.0.1:8088/ipxe/52-54-00-00-00-01.ipxe");
    long deadline = System.nanoTime() + 1_000_000_000L;
    while (!server.sent.containsKey("ack") && System.nanoTime() < deadline) {
      Thread.sleep(10); // the server counts a reply once its send returned
    }
    assertThat(server.sent.get("ack").sum()).isEqualTo(1);
  }

  @Test
  void garbageIsCountedAndDroppedAndTheNextClientIsServed() throws Exception {
    Random random = new Random(1);
    for (int i = 0; i < 200; i++) {
      byte[] junk = new byte[random.nextInt(600)];
      random.nextBytes(junk);
      send(junk);
    }
    byte[] cut =
        DhcpResponderTest.pxe(DhcpResponderTest.mac(2), 1, DhcpPacket.DISCOVER, 0, false).encode();
    clients.send(new DatagramPacket(cut, 241, serverAddress));

    send(
        DhcpResponderTest.pxe(DhcpResponderTest.mac(2), 90, DhcpPacket.DISCOVER, 0, false)
            .encode());

    assertThat(receive(90)).isNotNull();
    long malformed =
        server.malformed.values().stream()
            .mapToLong(java.util.concurrent.atomic.LongAdder::sum)
            .sum();
    assertThat(malformed).isGreaterThanOrEqualTo(200); // random bytes are never a valid request
    assertThat(server.malformed).doesNotContainKey("error");
  }

  @Test
  void aStormFromOneClientIsCutAndOthersAreStillAnswered() throws Exception {
    byte[] storm =
        DhcpResponderTest.pxe(DhcpResponderTest.mac(3), 5, DhcpPacket.DISCOVER, 0, false).encode();
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    long started = System.nanoTime();
    Thread flood =
        new Thread(
            () -> {
              try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
                // At least 1.5 s, and on until the other client was answered (at most 10 s): on a
                // loaded machine the storm must not end before the other client had its chances.
                long least = started + 1_500_000_000L;
                long most = started + 10_000_000_000L;
                while (System.nanoTime() < most && (!stop.get() || System.nanoTime() < least)) {
                  s.send(new DatagramPacket(storm, storm.length, serverAddress));
                }
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    flood.start();
    Thread.sleep(200);
    // The other client retransmits as a real one does (iPXE: after 1 s, then 2 s, ...); the
    // kernel may drop a datagram of its when the storm fills the socket's buffer, the server
    // must not.
    DhcpPacket offer = null;
    for (int attempt = 0; attempt < 10 && offer == null; attempt++) {
      assertThat(flood.isAlive()).as("the storm still runs while the other client asks").isTrue();
      send(
          DhcpResponderTest.pxe(DhcpResponderTest.mac(4), 91, DhcpPacket.DISCOVER, 0, false)
              .encode());
      offer = receiveWithin(91, 500);
    }
    stop.set(true);
    flood.join();

    assertThat(offer).as("the other client's offer during the storm").isNotNull();
    assertThat(server.limited.sum()).isGreaterThan(1000);
  }

  private DhcpPacket receiveWithin(int xid, int millis) throws Exception {
    clients.setSoTimeout(millis);
    try {
      return receive(xid);
    } finally {
      clients.setSoTimeout(2000);
    }
  }
}
