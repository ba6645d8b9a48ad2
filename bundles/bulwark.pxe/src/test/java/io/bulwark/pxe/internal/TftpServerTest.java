package io.bulwark.pxe.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TFTP server against real clients: curl (RFC 2347/2348 block size) and tftp-hpa's tftp (RFC
 * 1350 without options). No packaged client here speaks windowsize (RFC 7440), so {@link
 * WindowClient} does, byte for byte as the RFC's examples.
 */
class TftpServerTest {
  @TempDir Path root;
  @TempDir Path work;
  TftpServer server;
  byte[] content;

  @BeforeEach
  void start() throws Exception {
    content = new byte[3 * 1024 * 1024 + 17];
    new Random(7).nextBytes(content);
    Files.write(root.resolve("undionly.kpxe"), content);
    Files.createDirectories(root.resolve("efi"));
    Files.writeString(root.resolve("efi/exactly-512"), "x".repeat(512));
    Files.writeString(work.resolve("secret"), "not for booting machines");
    Files.createSymbolicLink(root.resolve("escape"), work.resolve("secret"));
    server = new TftpServer(root, new InetSocketAddress("127.0.0.1", 0), 300);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String url(String name) {
    return "tftp://127.0.0.1:" + server.port() + "/" + name;
  }

  private static Process run(Path dir, String... command) throws Exception {
    return new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
  }

  private static String finish(Process p) throws Exception {
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("client finished").isTrue();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void curlFetchesAFileWithANegotiatedBlockSize() throws Exception {
    Path out = work.resolve("curl.bin");
    Process p =
        run(
            work,
            "curl",
            "-sS",
            "--tftp-blksize",
            "1468",
            "-o",
            out.toString(),
            url("undionly.kpxe"));
    String log = finish(p);

    assertThat(p.exitValue()).as(log).isZero();
    assertThat(Files.readAllBytes(out)).isEqualTo(content);
    // curl exits once it has sent the last acknowledgement: the server may take it a moment later.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (server.completed.sum() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(server.completed.sum()).isEqualTo(1);
  }

  @Test
  void tftpHpaFetchesWithPlainRfc1350AndAFileOfWholeBlocksEndsWithAnEmptyOne() throws Exception {
    Process p =
        run(
            work,
            "tftp",
            "-m",
            "binary",
            "127.0.0.1",
            Integer.toString(server.port()),
            "-c",
            "get",
            "efi/exactly-512",
            "got");
    String log = finish(p);

    assertThat(Files.readString(work.resolve("got"))).as(log).isEqualTo("x".repeat(512));
  }

  @Test
  void windowsizeSendsSeveralBlocksPerAcknowledgement() throws Exception {
    try (WindowClient c = new WindowClient(server.port())) {
      byte[] got = c.get("undionly.kpxe", 1468, 16);
      assertThat(got).isEqualTo(content);
      // 3 MiB in 1468-byte blocks is 2143 blocks: one ACK per window of 16 plus the OACK's.
      assertThat(c.acks).isBetween(2143 / 16, 2143 / 16 + 3);
      assertThat(c.oack)
          .contains(
              "windowsize", "16", "blksize", "1468", "tsize", Integer.toString(content.length));
    }
  }

  @Test
  void aFileOfMoreThan65535BlocksRollsItsBlockNumberOver() throws Exception {
    byte[] big = new byte[70_000 * 8 + 3];
    new Random(9).nextBytes(big);
    Files.write(root.resolve("big.img"), big);
    try (WindowClient c = new WindowClient(server.port())) {
      assertThat(c.get("big.img", 8, 32)).isEqualTo(big);
    }
  }

  @Test
  void namesOutsideTheRootAndWritesAreRefused() throws Exception {
    // curl maps TFTP error 2 (access violation) to exit code 69 and error 1 (not found) to 68.
    assertThat(exit(run(work, "curl", "-sS", "-o", "/dev/null", url("..%2F..%2Fetc%2Fpasswd"))))
        .isEqualTo(69);
    assertThat(exit(run(work, "curl", "-sS", "-o", "/dev/null", url("escape")))).isEqualTo(69);
    assertThat(exit(run(work, "curl", "-sS", "-o", "/dev/null", url("nothing.efi")))).isEqualTo(68);
    Files.writeString(work.resolve("upload"), "data");
    assertThat(exit(run(work, "curl", "-sS", "-T", "upload", url("uploaded")))).isEqualTo(69);
    assertThat(root.resolve("uploaded")).doesNotExist();
    assertThat(server.refused.sum()).isEqualTo(4);
  }

  private static int exit(Process p) throws Exception {
    finish(p);
    return p.exitValue();
  }

  @Test
  void aClientThatStopsAcknowledgingHoldsOnlyItsOwnTransfer() throws Exception {
    // Ten clients ask and never acknowledge; curl fetches beside them, and they are dropped.
    List<DatagramChannel> stalled = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      DatagramChannel c = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.2", 0));
      c.send(
          WindowClient.rrq("undionly.kpxe", 512, 64),
          new InetSocketAddress("127.0.0.1", server.port()));
      stalled.add(c);
    }
    Path out = work.resolve("beside.bin");
    long t0 = System.nanoTime();
    Process p =
        run(
            work,
            "curl",
            "-sS",
            "--tftp-blksize",
            "1468",
            "-o",
            out.toString(),
            url("undionly.kpxe"));
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(Files.readAllBytes(out)).isEqualTo(content);
    assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(10));
    // 0.3 s timeout, 5 retries: the stalled transfers end within about 2 s.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (server.abandoned.sum() < 10 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(server.abandoned.sum()).isEqualTo(10);
    assertThat(server.sessions()).isZero();
    for (DatagramChannel c : stalled) {
      c.close();
    }
  }

  @Test
  void malformedRequestsAreAnsweredWithAnErrorAndCounted() throws Exception {
    try (DatagramChannel c = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
      c.socket().setSoTimeout(2000);
      InetSocketAddress to = new InetSocketAddress("127.0.0.1", server.port());
      c.send(ByteBuffer.wrap(new byte[] {0, 1, 'a', 'b'}), to); // file name not terminated
      c.send(ByteBuffer.wrap(new byte[] {0, 1, 'a', 0, 'x', 'y', 0}), to); // mode "xy"
      c.send(ByteBuffer.wrap(new byte[] {0, 9}), to); // too short
      for (int i = 0; i < 2; i++) {
        ByteBuffer b = ByteBuffer.allocate(600);
        c.socket().getChannel();
        java.net.DatagramPacket reply = new java.net.DatagramPacket(new byte[600], 600);
        c.socket().receive(reply);
        assertThat(reply.getData()[1]).isEqualTo((byte) TftpPacket.ERROR);
        assertThat(b).isNotNull();
      }
    }
    assertThat(server.malformed.get("string").sum()).isEqualTo(1);
    assertThat(server.malformed.get("mode").sum()).isEqualTo(1);
    // and the server still serves
    Process p =
        run(
            work,
            "curl",
            "-sS",
            "-o",
            "/dev/null",
            "-w",
            "%{size_download}",
            url("efi/exactly-512"));
    assertThat(finish(p)).isEqualTo("512");
  }

  /** A TFTP client with RFC 7440 windowsize: one ACK per window, the last block's number. */
  static final class WindowClient implements AutoCloseable {
    final DatagramChannel channel;
    final int port;
    int acks;
    String oack = "";

    final InetAddress host;

    /** Collects the bytes received when set; else they are only counted (the benchmark). */
    boolean keep = true;

    long received;

    WindowClient(int port) throws Exception {
      this(InetAddress.getLoopbackAddress(), port);
    }

    WindowClient(InetAddress host, int port) throws Exception {
      this.host = host;
      this.port = port;
      channel = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
      channel.socket().setSoTimeout(3000);
    }

    static ByteBuffer rrq(String name, int blksize, int window) {
      String text =
          name + "\0octet\0blksize\0" + blksize + "\0tsize\0" + "0\0windowsize\0" + window + "\0";
      ByteBuffer b = ByteBuffer.allocate(2 + text.length());
      b.putShort((short) 1).put(text.getBytes(StandardCharsets.US_ASCII));
      return b.flip();
    }

    byte[] get(String name, int blksize, int asked) throws Exception {
      int window;
      channel.send(rrq(name, blksize, asked), new InetSocketAddress(host, port));
      byte[] buf = new byte[blksize + 4];
      java.net.DatagramPacket p = new java.net.DatagramPacket(buf, buf.length);
      channel.socket().receive(p);
      assertThat(buf[1]).isEqualTo((byte) TftpPacket.OACK);
      oack = new String(buf, 2, p.getLength() - 2, StandardCharsets.US_ASCII).replace('\0', ' ');
      // The server may grant a smaller window or none (RFC 7440 section 4): use what it said.
      String[] words = oack.trim().split(" ");
      int granted = 1;
      for (int i = 0; i + 1 < words.length; i += 2) {
        if (words[i].equalsIgnoreCase("windowsize")) {
          granted = Integer.parseInt(words[i + 1]);
        }
      }
      window = granted;
      InetSocketAddress tid = (InetSocketAddress) p.getSocketAddress();
      ack(0, tid);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      long expected = 1;
      int inWindow = 0;
      while (true) {
        p = new java.net.DatagramPacket(buf, buf.length);
        try {
          channel.socket().receive(p);
        } catch (SocketTimeoutException e) {
          throw new AssertionError("no block " + expected + " within 3 s", e);
        }
        assertThat(buf[1]).isEqualTo((byte) TftpPacket.DATA);
        int block = ((buf[2] & 0xff) << 8) | (buf[3] & 0xff);
        if (block != (expected & 0xffff)) {
          continue; // out of order: wait for the server's retransmission
        }
        int n = p.getLength() - 4;
        received += n;
        if (keep) {
          out.write(buf, 4, n);
        }
        inWindow++;
        boolean last = n < blksize;
        if (last || inWindow == window) {
          ack(block, tid);
          inWindow = 0;
        }
        if (last) {
          return out.toByteArray();
        }
        expected++;
      }
    }

    private void ack(int block, InetSocketAddress to) throws Exception {
      acks++;
      channel.send(ByteBuffer.wrap(new byte[] {0, 4, (byte) (block >>> 8), (byte) block}), to);
    }

    @Override
    public void close() throws Exception {
      channel.close();
    }
  }
}
