package io.bulwark.pxe.internal;

import io.bulwark.api.store.StoreUnavailableException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The DHCP server's receive loop: one thread per socket reads a datagram, drops it if it is
 * malformed (counted by kind) or if its MAC sends faster than any booting machine does (so that a
 * storm from one client never starves the others), asks the {@link DhcpResponder}, and sends the
 * reply. Broadcast replies go to {@code broadcastTarget} and client port 68 to {@code clientPort}
 * (255.255.255.255 and 68 on a real subnet; the tests' loopback clients listen elsewhere).
 */
final class DhcpServer implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(DhcpServer.class.getName());

  /** A booting client sends a handful of packets a second at most: more is a storm. */
  static final int BURST = 8;

  static final long REFILL_NANOS = 250_000_000L;

  final Map<String, LongAdder> malformed = new ConcurrentHashMap<>();
  final Map<String, LongAdder> sent = new ConcurrentHashMap<>();
  final LongAdder received = new LongAdder();
  final LongAdder limited = new LongAdder();
  final LongAdder storeRefusals = new LongAdder();

  private final DhcpResponder responder;
  private final PacketSocket[] sockets;
  private final InetSocketAddress broadcastTarget;
  private final int clientPort;
  private final Thread[] threads;
  private final Map<String, long[]> buckets =
      new LinkedHashMap<>(1024, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, long[]> eldest) {
          return size() > 65_536;
        }
      };
  private volatile boolean running = true;

  DhcpServer(
      DhcpResponder responder,
      InetSocketAddress broadcastTarget,
      int clientPort,
      PacketSocket... sockets) {
    this.responder = responder;
    this.sockets = sockets;
    this.broadcastTarget = broadcastTarget;
    this.clientPort = clientPort;
    threads = new Thread[sockets.length];
    for (int i = 0; i < sockets.length; i++) {
      PacketSocket s = sockets[i];
      threads[i] = new Thread(() -> loop(s), "bulwark-dhcp-" + s.port());
      threads[i].setDaemon(true);
      threads[i].start();
    }
  }

  private void loop(PacketSocket socket) {
    byte[] buffer = new byte[DhcpPacket.MAX_SIZE + 1];
    InetSocketAddress[] from = new InetSocketAddress[1];
    while (running) {
      int n;
      try {
        n = socket.receive(buffer, from);
      } catch (SocketTimeoutException e) {
        continue;
      } catch (IOException e) {
        if (running) {
          LOG.log(Level.WARNING, "DHCP receive failed; going on: " + e.getMessage());
          pause();
        }
        continue;
      }
      received.increment();
      try {
        handle(socket, buffer, n, from[0]);
      } catch (RuntimeException e) {
        // A defect must not stop the service: count it as malformed and keep serving.
        count(malformed, "error");
        LOG.log(Level.SEVERE, "DHCP request from " + from[0] + " failed; dropped", e);
      }
    }
  }

  private void handle(PacketSocket socket, byte[] buffer, int n, InetSocketAddress from) {
    DhcpPacket request;
    try {
      request = DhcpPacket.parse(buffer, n);
    } catch (MalformedPacketException e) {
      count(malformed, e.kind());
      LOG.fine(() -> "dropped a malformed DHCP packet from " + from + ": " + e.getMessage());
      return;
    }
    if (request.op != DhcpPacket.BOOTREQUEST) {
      return;
    }
    if (!admit(request.mac())) {
      limited.increment();
      return;
    }
    DhcpResponder.Reply reply;
    try {
      reply = responder.answer(request, from);
    } catch (StoreUnavailableException e) {
      storeRefusals.increment();
      LOG.warning(
          "Cannot keep the lease of "
              + request.mac()
              + ": "
              + e.getMessage()
              + "; no ACK sent, the client will ask again");
      return;
    }
    if (reply == null) {
      return;
    }
    InetSocketAddress to = reply.to();
    if (to.getAddress().isAnyLocalAddress() || to.getAddress().getAddress()[0] == (byte) 255) {
      to = new InetSocketAddress(broadcastTarget.getAddress(), portFor(to.getPort()));
    } else {
      to = new InetSocketAddress(to.getAddress(), portFor(to.getPort()));
    }
    try {
      socket.send(reply.data(), to);
      count(sent, typeName(reply.type()));
      LOG.fine(reply::summary);
    } catch (IOException e) {
      LOG.warning("Cannot send the DHCP " + reply.summary() + ": " + e.getMessage());
    }
  }

  private int portFor(int port) {
    return port == DhcpResponder.CLIENT_PORT ? clientPort : port;
  }

  /** A token bucket per MAC: {@link #BURST} packets, one more every 250 ms. */
  private boolean admit(String mac) {
    long now = System.nanoTime();
    synchronized (buckets) {
      long[] b = buckets.computeIfAbsent(mac, k -> new long[] {BURST, now});
      long refill = (now - b[1]) / REFILL_NANOS;
      if (refill > 0) {
        b[0] = Math.min(BURST, b[0] + refill);
        b[1] += refill * REFILL_NANOS;
      }
      if (b[0] == 0) {
        return false;
      }
      b[0]--;
      return true;
    }
  }

  static String typeName(int type) {
    return switch (type) {
      case DhcpPacket.OFFER -> "offer";
      case DhcpPacket.ACK -> "ack";
      case DhcpPacket.NAK -> "nak";
      default -> "other";
    };
  }

  private static void count(Map<String, LongAdder> counters, String key) {
    counters.computeIfAbsent(key, k -> new LongAdder()).increment();
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  int port(int i) {
    return sockets[i].port();
  }

  @Override
  public void close() {
    running = false;
    for (Thread t : threads) {
      try {
        t.join(2_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    for (PacketSocket s : sockets) {
      try {
        s.close();
      } catch (IOException e) {
        // closing
      }
    }
  }
}
