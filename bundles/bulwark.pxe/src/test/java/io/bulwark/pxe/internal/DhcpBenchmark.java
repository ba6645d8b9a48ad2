package io.bulwark.pxe.internal;

import io.bulwark.store.internal.MapDbRecordStore;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark harness (not a test; run by hand, see docs/benchmarks.md): N simulated PXE clients each
 * go through DISCOVER, OFFER, REQUEST, ACK against the real DHCP server (its socket loop, the lease
 * book on the real store, which syncs every lease to disk before its ACK), over UDP on loopback,
 * with at most C clients in flight. Prints the wall time, the rate and the percentiles of one
 * client's whole exchange, and the leases bound.
 *
 * <p>Arguments: CLIENTS (1000), IN_FLIGHT (64).
 */
public final class DhcpBenchmark {
  private DhcpBenchmark() {}

  public static void main(String[] args) throws Exception {
    int clients = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int inFlight = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    Path dir = Files.createTempDirectory("bulwark-dhcp-bench");
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir);
        DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
      DhcpSettings s =
          new DhcpSettings(
              false,
              DhcpPacket.ipv4("10.40.0.1"),
              DhcpPacket.ipv4("10.40.0.0"),
              0xfffff800,
              DhcpPacket.ipv4("10.40.0.10"),
              DhcpPacket.ipv4("10.40.7.250"),
              DhcpPacket.ipv4("10.40.0.1"),
              List.of(),
              "",
              Duration.ofHours(1),
              Map.of(),
              8088);
      DhcpResponder responder =
          new DhcpResponder(s, new LeaseBook(store, s), n -> true, Clock.systemUTC());
      try (DhcpServer server =
          new DhcpServer(
              responder,
              new InetSocketAddress("127.0.0.1", 0),
              socket.getLocalPort(),
              new ChannelSocket(new InetSocketAddress("127.0.0.1", 0)))) {
        InetSocketAddress to =
            new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port(0));
        socket.setSoTimeout(200);
        Map<Integer, CountDownLatch> offers = new ConcurrentHashMap<>();
        Map<Integer, DhcpPacket> offered = new ConcurrentHashMap<>();
        Map<Integer, CountDownLatch> acks = new ConcurrentHashMap<>();
        Thread receiver =
            new Thread(
                () -> {
                  byte[] buf = new byte[1500];
                  while (!Thread.currentThread().isInterrupted()) {
                    DatagramPacket p = new DatagramPacket(buf, buf.length);
                    try {
                      socket.receive(p);
                      DhcpPacket r = DhcpPacket.parse(buf, p.getLength());
                      if (r.messageType() == DhcpPacket.OFFER) {
                        offered.put(r.xid, r);
                        CountDownLatch l = offers.get(r.xid);
                        if (l != null) {
                          l.countDown();
                        }
                      } else if (r.messageType() == DhcpPacket.ACK) {
                        CountDownLatch l = acks.get(r.xid ^ 0x40000000);
                        if (l != null) {
                          l.countDown();
                        }
                      }
                    } catch (SocketTimeoutException e) {
                      // keep listening
                    } catch (Exception e) {
                      return;
                    }
                  }
                });
        receiver.setDaemon(true);
        receiver.start();
        long[] micros = new long[clients];
        java.util.concurrent.ExecutorService pool =
            java.util.concurrent.Executors.newFixedThreadPool(inFlight);
        CountDownLatch done = new CountDownLatch(clients);
        int[] retries = new int[1];
        long t0 = System.nanoTime();
        for (int i = 0; i < clients; i++) {
          int n = i;
          pool.execute(
              () -> {
                try {
                  byte[] mac = {0x52, 0x54, 0, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
                  int xid = 0x10000000 + n;
                  long start = System.nanoTime();
                  CountDownLatch offer = new CountDownLatch(1);
                  offers.put(xid, offer);
                  byte[] discover =
                      DhcpResponderTest.pxe(mac, xid, DhcpPacket.DISCOVER, 0, true).encode();
                  send(socket, discover, to);
                  while (!offer.await(1, TimeUnit.SECONDS)) {
                    synchronized (retries) {
                      retries[0]++;
                    }
                    send(socket, discover, to); // as a client retransmits
                  }
                  DhcpPacket o = offered.get(xid);
                  CountDownLatch ack = new CountDownLatch(1);
                  acks.put(xid, ack);
                  byte[] request =
                      DhcpResponderTest.pxe(mac, xid ^ 0x40000000, DhcpPacket.REQUEST, 0, true)
                          .address(DhcpPacket.REQUESTED_IP, o.yiaddr)
                          .address(DhcpPacket.SERVER_ID, s.server())
                          .encode();
                  send(socket, request, to);
                  while (!ack.await(1, TimeUnit.SECONDS)) {
                    synchronized (retries) {
                      retries[0]++;
                    }
                    send(socket, request, to);
                  }
                  micros[n] = (System.nanoTime() - start) / 1000;
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                } finally {
                  done.countDown();
                }
              });
        }
        done.await();
        pool.shutdown();
        double seconds = (System.nanoTime() - t0) / 1e9;
        receiver.interrupt();
        Arrays.sort(micros);
        System.out.printf(
            Locale.ROOT,
            "clients %d in flight %d: %.2f s, %.0f clients/s (%.0f per minute); exchange p50 %.1f ms, p99 %.1f ms,"
                + " max %.1f ms; retransmissions %d; leases bound %d; malformed %d, rate-limited %d%n",
            clients,
            inFlight,
            seconds,
            clients / seconds,
            clients / seconds * 60,
            micros[clients / 2] / 1000.0,
            micros[(int) (clients * 0.99) - 1] / 1000.0,
            micros[clients - 1] / 1000.0,
            retries[0],
            responder == null ? 0 : store.read(r -> r.map(Lease.MAP).size()),
            server.malformed.values().stream()
                .mapToLong(java.util.concurrent.atomic.LongAdder::sum)
                .sum(),
            server.limited.sum());
      }
    }
  }

  private static void send(DatagramSocket socket, byte[] data, InetSocketAddress to)
      throws Exception {
    socket.send(new DatagramPacket(data, data.length, to));
  }
}
