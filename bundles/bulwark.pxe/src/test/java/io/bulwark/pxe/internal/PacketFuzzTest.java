package io.bulwark.pxe.internal;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.bulwark.store.internal.MapDbRecordStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Fuzzes what the provisioning plane reads off the network: any datagram must either parse or be
 * refused as malformed, and a parsed DHCP request must get an answer or none without an error (the
 * responder runs on the real store). Without {@code JAZZER_FUZZ} these run the corpus in {@code
 * src/test/resources/io/bulwark/pxe/internal/PacketFuzzTestInputs} as regression tests; the
 * module's fuzz executions run each for a fixed time with it set.
 */
class PacketFuzzTest {
  private static final InetSocketAddress FROM = new InetSocketAddress("10.77.0.200", 68);
  private static DhcpResponder responder;

  private static synchronized DhcpResponder responder() {
    if (responder == null) {
      try {
        Path dir = Files.createTempDirectory("bulwark-fuzz-store");
        MapDbRecordStore store = Stores.open(dir);
        DhcpSettings s = Stores.subnet(false, 8088);
        responder = new DhcpResponder(s, new LeaseBook(store, s), n -> true, Clock.systemUTC());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return responder;
  }

  @FuzzTest(maxDuration = "20s")
  void dhcp(byte[] data) {
    DhcpPacket p;
    try {
      p = DhcpPacket.parse(data, data.length);
    } catch (MalformedPacketException e) {
      return;
    }
    BootClient.of(p);
    DhcpResponder.Reply reply = responder().answer(p, FROM);
    if (reply != null) {
      try {
        DhcpPacket.parse(reply.data(), reply.data().length);
      } catch (MalformedPacketException e) {
        throw new AssertionError("the server wrote a reply it cannot read: " + e.getMessage(), e);
      }
    }
  }

  @FuzzTest(maxDuration = "20s")
  void tftp(byte[] data) {
    try {
      int op = TftpPacket.opcode(data, data.length);
      if (op == TftpPacket.RRQ || op == TftpPacket.WRQ) {
        TftpPacket.Request r = TftpPacket.request(data, data.length);
        if (r.file().isEmpty()) {
          throw new AssertionError("an empty file name was accepted");
        }
      } else if (op == TftpPacket.ACK) {
        TftpPacket.ackBlock(data, data.length);
      }
    } catch (MalformedPacketException e) {
      // refused, as it should be
    }
  }
}
