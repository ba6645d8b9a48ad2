package io.bulwark.pxe.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A read-only TFTP server (RFC 1350) with option negotiation (RFC 2347), block size (RFC 2348),
 * timeout and transfer size (RFC 2349) and windowsize (RFC 7440), confined to one root folder:
 * names are resolved inside it, {@code ..} and links that lead out of it are refused, and write
 * requests are refused. One thread and one selector serve every transfer, each on its own port (its
 * transfer ID); a client that stops acknowledging is retried a few times and dropped, and holds
 * only its own transfer: the others go on. Blocks roll over from 65535 to 0 for files larger than
 * 65535 blocks, as common clients expect.
 */
final class TftpServer implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(TftpServer.class.getName());
  static final int MAX_BLKSIZE = 65_464;
  static final int MAX_WINDOW = 64;
  static final int MAX_SESSIONS = 512;
  static final int MAX_PER_CLIENT = 16;
  static final int RETRIES = 5;

  final LongAdder started = new LongAdder();
  final LongAdder completed = new LongAdder();
  final LongAdder abandoned = new LongAdder();
  final LongAdder refused = new LongAdder();
  final LongAdder bytes = new LongAdder();
  final Map<String, LongAdder> malformed = new ConcurrentHashMap<>();

  private final Path root;
  private final Path realRoot;
  private final InetAddress address;
  private final long defaultTimeoutNanos;
  private final Selector selector;
  private final DatagramChannel listener;
  private final Thread thread;
  private final Map<InetAddress, Integer> perClient = new HashMap<>();
  private final ByteBuffer in = ByteBuffer.allocateDirect(MAX_BLKSIZE + 4);
  private final ByteBuffer out = ByteBuffer.allocateDirect(MAX_BLKSIZE + 4);
  private final byte[] scratch = new byte[MAX_BLKSIZE + 4];
  private int sessions;
  private volatile boolean running = true;

  /**
   * @throws IOException if the root is not a folder or the port cannot be bound (the message says
   *     which)
   */
  TftpServer(Path root, InetSocketAddress bind, long defaultTimeoutMillis) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    if (!Files.isDirectory(this.root)) {
      throw new IOException("the TFTP root " + this.root + " is not a folder");
    }
    this.realRoot = this.root.toRealPath();
    this.address = bind.getAddress();
    this.defaultTimeoutNanos = defaultTimeoutMillis * 1_000_000L;
    selector = Selector.open();
    listener = DatagramChannel.open();
    try {
      listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      listener.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
      listener.bind(bind);
    } catch (IOException e) {
      listener.close();
      selector.close();
      throw new IOException(
          "cannot listen for TFTP on "
              + bind
              + " ("
              + e.getMessage()
              + "): another TFTP server may"
              + " hold the port",
          e);
    }
    listener.configureBlocking(false);
    listener.register(selector, SelectionKey.OP_READ);
    thread = new Thread(this::loop, "bulwark-tftp");
    thread.setDaemon(true);
    thread.start();
  }

  int port() {
    return ((InetSocketAddress) localAddress()).getPort();
  }

  private java.net.SocketAddress localAddress() {
    try {
      return listener.getLocalAddress();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Returns how many transfers are under way. */
  synchronized int sessions() {
    return sessions;
  }

  /** Returns true if the root holds a regular file of that name. */
  boolean has(String name) {
    try {
      return resolve(name) != null;
    } catch (IOException | SecurityException e) {
      return false;
    }
  }

  private final class Session {
    final DatagramChannel channel;
    final InetSocketAddress peer;
    final FileChannel file;
    final String name;
    final long size;
    final int blksize;
    final int window;
    final long timeoutNanos;
    final long lastBlock;
    boolean oackPending;
    ByteBuffer oack;
    long acked;
    long sent;
    long deadline;
    int retries;

    Session(
        DatagramChannel channel,
        InetSocketAddress peer,
        FileChannel file,
        String name,
        long size,
        int blksize,
        int window,
        long timeoutNanos) {
      this.channel = channel;
      this.peer = peer;
      this.file = file;
      this.name = name;
      this.size = size;
      this.blksize = blksize;
      this.window = window;
      this.timeoutNanos = timeoutNanos;
      this.lastBlock = size / blksize + 1;
    }
  }

  private void loop() {
    while (running) {
      try {
        long now = System.nanoTime();
        long next = now + 1_000_000_000L;
        for (SelectionKey k : selector.keys()) {
          if (k.attachment() instanceof Session s) {
            if (s.deadline - now <= 0) {
              timeout(k, s);
            } else {
              next = Math.min(next, s.deadline);
            }
          }
        }
        long wait = Math.max(1, (next - System.nanoTime()) / 1_000_000L);
        selector.select(wait);
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
          SelectionKey k = it.next();
          it.remove();
          if (!k.isValid()) {
            continue;
          }
          try {
            if (k.attachment() instanceof Session s) {
              readAck(k, s);
            } else {
              readRequest();
            }
          } catch (IOException e) {
            if (k.attachment() instanceof Session s) {
              LOG.fine(() -> "TFTP transfer of " + s.name + " to " + s.peer + " failed: " + e);
              end(k, s, false);
            }
          }
        }
      } catch (ClosedSelectorException e) {
        return;
      } catch (IOException | RuntimeException e) {
        if (running) {
          LOG.log(Level.WARNING, "TFTP server loop error; going on", e);
        }
      }
    }
  }

  private void readRequest() throws IOException {
    for (int i = 0; i < 64; i++) {
      in.clear();
      InetSocketAddress from = (InetSocketAddress) listener.receive(in);
      if (from == null) {
        return;
      }
      in.flip();
      int n = in.remaining();
      in.get(scratch, 0, n);
      TftpPacket.Request request;
      try {
        int op = TftpPacket.opcode(scratch, n);
        if (op != TftpPacket.RRQ && op != TftpPacket.WRQ) {
          // An ACK or DATA to port 69 belongs to no transfer (RFC 1350: unknown transfer ID).
          reply(from, TftpPacket.error(TftpPacket.UNKNOWN_TID, "no transfer on this port"));
          continue;
        }
        request = TftpPacket.request(scratch, n);
      } catch (MalformedPacketException e) {
        malformed.computeIfAbsent(e.kind(), k -> new LongAdder()).increment();
        reply(from, TftpPacket.error(TftpPacket.ILLEGAL_OPERATION, e.getMessage()));
        continue;
      }
      start(from, request);
    }
  }

  /** Answers from a port of its own, as a transfer would (RFC 1350: each side picks a TID). */
  private void reply(InetSocketAddress to, ByteBuffer packet) {
    try (DatagramChannel once = DatagramChannel.open()) {
      once.bind(new InetSocketAddress(address, 0));
      once.send(packet, to);
    } catch (IOException e) {
      LOG.fine(() -> "cannot answer " + to + ": " + e.getMessage());
    }
  }

  private void start(InetSocketAddress from, TftpPacket.Request request) throws IOException {
    if (request.opcode() == TftpPacket.WRQ) {
      refused.increment();
      reply(from, TftpPacket.error(TftpPacket.ACCESS_VIOLATION, "this TFTP server is read-only"));
      return;
    }
    Path path;
    try {
      path = resolve(request.file());
    } catch (SecurityException e) {
      refused.increment();
      LOG.warning(
          "TFTP request from " + from + " for '" + request.file() + "' refused: " + e.getMessage());
      reply(from, TftpPacket.error(TftpPacket.ACCESS_VIOLATION, e.getMessage()));
      return;
    }
    if (path == null) {
      refused.increment();
      LOG.info(
          () -> "TFTP request from " + from + " for '" + request.file() + "': not in the root");
      reply(from, TftpPacket.error(TftpPacket.FILE_NOT_FOUND, request.file() + " not found"));
      return;
    }
    synchronized (this) {
      int mine = perClient.getOrDefault(from.getAddress(), 0);
      if (sessions >= MAX_SESSIONS || mine >= MAX_PER_CLIENT) {
        refused.increment();
        reply(from, TftpPacket.error(TftpPacket.NOT_DEFINED, "server busy, try again"));
        return;
      }
      sessions++;
      perClient.put(from.getAddress(), mine + 1);
    }
    FileChannel file = null;
    DatagramChannel channel = null;
    try {
      file = FileChannel.open(path, StandardOpenOption.READ);
      long size = file.size();
      int blksize = 512;
      int window = 1;
      long timeout = defaultTimeoutNanos;
      Map<String, String> accepted = new LinkedHashMap<>();
      for (Map.Entry<String, String> o : request.options().entrySet()) {
        long v;
        try {
          v = Long.parseLong(o.getValue());
        } catch (NumberFormatException e) {
          continue; // an option we cannot read is left out of the OACK (RFC 2347)
        }
        switch (o.getKey()) {
          case "blksize" -> {
            if (v >= 8) {
              blksize = (int) Math.min(v, MAX_BLKSIZE);
              accepted.put("blksize", Integer.toString(blksize));
            }
          }
          case "tsize" -> accepted.put("tsize", Long.toString(size));
          case "timeout" -> {
            if (v >= 1 && v <= 255) {
              timeout = v * 1_000_000_000L;
              accepted.put("timeout", Long.toString(v));
            }
          }
          case "windowsize" -> {
            if (v >= 1 && v <= 65_535) {
              window = (int) Math.min(v, MAX_WINDOW);
              accepted.put("windowsize", Integer.toString(window));
            }
          }
          default -> {
            // unknown options are ignored
          }
        }
      }
      channel = DatagramChannel.open();
      channel.bind(new InetSocketAddress(address, 0));
      channel.connect(from);
      channel.configureBlocking(false);
      Session s = new Session(channel, from, file, request.file(), size, blksize, window, timeout);
      SelectionKey key = channel.register(selector, SelectionKey.OP_READ, s);
      started.increment();
      if (!accepted.isEmpty()) {
        s.oackPending = true;
        s.oack = TftpPacket.oack(accepted);
        channel.write(s.oack.duplicate());
        s.deadline = System.nanoTime() + s.timeoutNanos;
      } else {
        sendWindow(key, s);
      }
    } catch (IOException e) {
      release(from.getAddress());
      if (channel != null) {
        channel.close();
      }
      if (file != null) {
        file.close();
      }
      reply(from, TftpPacket.error(TftpPacket.NOT_DEFINED, "cannot read " + request.file()));
      LOG.warning("TFTP: cannot serve " + path + " to " + from + ": " + e.getMessage());
    }
  }

  /**
   * Returns the file {@code name} stands for inside the root, or null if there is none.
   *
   * @throws SecurityException if the name leads out of the root
   */
  Path resolve(String name) throws IOException {
    String n = name.replace('\\', '/');
    while (n.startsWith("/")) {
      n = n.substring(1);
    }
    if (n.indexOf('\0') >= 0) {
      throw new SecurityException("a file name with a NUL byte");
    }
    for (String segment : n.split("/")) {
      if (segment.equals("..")) {
        throw new SecurityException("'..' leads out of the TFTP root");
      }
    }
    Path p = root.resolve(n).normalize();
    if (!p.startsWith(root)) {
      throw new SecurityException("the name leads out of the TFTP root");
    }
    Path real;
    try {
      real = p.toRealPath();
    } catch (NoSuchFileException e) {
      return null;
    }
    if (!real.startsWith(realRoot)) {
      throw new SecurityException("a link leads out of the TFTP root");
    }
    return Files.isRegularFile(real) ? real : null;
  }

  private void readAck(SelectionKey key, Session s) throws IOException {
    for (int i = 0; i < 64 && key.isValid(); i++) {
      in.clear();
      int n = s.channel.read(in);
      if (n <= 0) {
        return;
      }
      in.flip();
      in.get(scratch, 0, n);
      int op;
      try {
        op = TftpPacket.opcode(scratch, n);
      } catch (MalformedPacketException e) {
        malformed.computeIfAbsent(e.kind(), k -> new LongAdder()).increment();
        continue;
      }
      if (op == TftpPacket.ERROR) {
        // Clients end a transfer this way, e.g. a PXE ROM that only wanted tsize.
        end(key, s, false);
        return;
      }
      if (op != TftpPacket.ACK) {
        malformed.computeIfAbsent("opcode", k -> new LongAdder()).increment();
        continue;
      }
      int block = ((scratch[2] & 0xff) << 8) | (scratch[3] & 0xff);
      if (s.oackPending) {
        if (block == 0) {
          s.oackPending = false;
          s.retries = 0;
          sendWindow(key, s);
        }
        continue;
      }
      long k = s.sent;
      while (k > s.acked && (k & 0xffff) != block) {
        k--;
      }
      if (k <= s.acked) {
        continue; // a duplicate or stale ACK: only a timeout resends (RFC 1123 4.2.3.1)
      }
      s.acked = k;
      s.retries = 0;
      if (s.acked >= s.lastBlock) {
        end(key, s, true);
        return;
      }
      sendWindow(key, s);
    }
  }

  private void sendWindow(SelectionKey key, Session s) throws IOException {
    long first = s.acked + 1;
    long last = Math.min(s.acked + s.window, s.lastBlock);
    for (long b = first; b <= last; b++) {
      long position = (b - 1) * s.blksize;
      int length = (int) Math.max(0, Math.min(s.blksize, s.size - position));
      out.clear();
      out.putShort((short) TftpPacket.DATA).putShort((short) (b & 0xffff));
      out.limit(4 + length);
      while (out.hasRemaining()) {
        if (s.file.read(out, position + out.position() - 4) < 0) {
          throw new IOException(s.name + " became shorter while it was sent");
        }
      }
      out.flip();
      s.channel.write(out);
      bytes.add(length);
    }
    s.sent = Math.max(s.sent, last);
    s.deadline = System.nanoTime() + s.timeoutNanos;
  }

  private void timeout(SelectionKey key, Session s) {
    if (++s.retries > RETRIES) {
      LOG.info(
          () ->
              "TFTP transfer of "
                  + s.name
                  + " to "
                  + s.peer
                  + " dropped: no acknowledgement after "
                  + RETRIES
                  + " retries");
      try {
        s.channel.write(TftpPacket.error(TftpPacket.NOT_DEFINED, "timed out"));
      } catch (IOException e) {
        // the client is gone
      }
      end(key, s, false);
      return;
    }
    try {
      if (s.oackPending) {
        s.channel.write(s.oack.duplicate());
        s.deadline = System.nanoTime() + s.timeoutNanos;
      } else {
        sendWindow(key, s);
      }
    } catch (IOException e) {
      end(key, s, false);
    }
  }

  private void end(SelectionKey key, Session s, boolean done) {
    key.cancel();
    try {
      s.channel.close();
      s.file.close();
    } catch (IOException e) {
      // closing
    }
    (done ? completed : abandoned).increment();
    release(s.peer.getAddress());
  }

  private synchronized void release(InetAddress client) {
    sessions--;
    perClient.computeIfPresent(client, (k, v) -> v <= 1 ? null : v - 1);
  }

  @Override
  public void close() {
    running = false;
    selector.wakeup();
    try {
      thread.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      for (SelectionKey k : selector.keys()) {
        k.channel().close();
        if (k.attachment() instanceof Session s) {
          s.file.close();
        }
      }
      selector.close();
      listener.close();
    } catch (IOException e) {
      // closing
    }
  }
}
