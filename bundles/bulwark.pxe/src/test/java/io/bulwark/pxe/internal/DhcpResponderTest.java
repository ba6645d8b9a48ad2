package io.bulwark.pxe.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.store.internal.MapDbRecordStore;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's decisions on the real store, without sockets (the socket tests are elsewhere). */
class DhcpResponderTest {
  static final InetSocketAddress FROM = new InetSocketAddress("0.0.0.0", 68);
  @TempDir Path dir;
  MapDbRecordStore store;
  final MutableClock clock = new MutableClock();

  static final class MutableClock extends Clock {
    Instant now = Instant.parse("2026-12-03T08:00:00Z");

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private DhcpResponder responder(boolean proxy) {
    store = store == null ? Stores.open(dir) : store;
    DhcpSettings s = Stores.subnet(proxy, 8088);
    return new DhcpResponder(s, new LeaseBook(store, s), name -> true, clock);
  }

  static byte[] mac(int last) {
    return HexFormat.ofDelimiter(":").parseHex(String.format("52:54:00:00:00:%02x", last));
  }

  static DhcpPacket.Builder pxe(byte[] mac, int xid, int type, int arch, boolean ipxe) {
    DhcpPacket.Builder b =
        DhcpPacket.request(mac, xid)
            .type(type)
            .option(DhcpPacket.CLIENT_ARCH, new byte[] {0, (byte) arch})
            .option(
                DhcpPacket.VENDOR_CLASS, String.format("PXEClient:Arch:%05d:UNDI:002001", arch));
    if (ipxe) {
      b.option(DhcpPacket.USER_CLASS, "iPXE");
    }
    return b;
  }

  static DhcpPacket parse(byte[] wire) throws MalformedPacketException {
    return DhcpPacket.parse(wire, wire.length);
  }

  static DhcpPacket reply(DhcpResponder r, DhcpPacket.Builder request) throws Exception {
    byte[] wire = request.encode();
    DhcpResponder.Reply reply = r.answer(parse(wire), FROM);
    return reply == null ? null : parse(reply.data());
  }

  @Test
  void discoverOfferRequestAckBindsTheOfferedAddressAndPointsBiosAtUndionly() throws Exception {
    DhcpResponder r = responder(false);

    DhcpPacket offer = reply(r, pxe(mac(1), 10, DhcpPacket.DISCOVER, 0, false));

    assertThat(offer.messageType()).isEqualTo(DhcpPacket.OFFER);
    assertThat(offer.xid).isEqualTo(10);
    assertThat(DhcpPacket.dotted(offer.yiaddr)).isEqualTo("10.77.0.100");
    assertThat(DhcpPacket.dotted(offer.address(DhcpPacket.SERVER_ID))).isEqualTo("10.77.0.1");
    assertThat(DhcpPacket.dotted(offer.address(DhcpPacket.SUBNET_MASK))).isEqualTo("255.255.255.0");
    assertThat(offer.file).isEqualTo("undionly.kpxe");
    assertThat(DhcpPacket.dotted(offer.siaddr)).isEqualTo("10.77.0.1");

    DhcpPacket ack =
        reply(
            r,
            pxe(mac(1), 11, DhcpPacket.REQUEST, 0, false)
                .address(DhcpPacket.REQUESTED_IP, offer.yiaddr)
                .address(DhcpPacket.SERVER_ID, offer.address(DhcpPacket.SERVER_ID)));

    assertThat(ack.messageType()).isEqualTo(DhcpPacket.ACK);
    assertThat(ack.yiaddr).isEqualTo(offer.yiaddr);
    assertThat(ByteBufferInts.of(ack.option(DhcpPacket.LEASE_TIME))).isEqualTo(3600);
    // The lease is in the store: a new book on the same store knows it.
    Lease kept = new LeaseBook(store, Stores.subnet(false, 8088)).lease("52:54:00:00:00:01");
    assertThat(kept.address()).isEqualTo(offer.yiaddr);
    assertThat(kept.expires()).isEqualTo(clock.now.plus(Duration.ofHours(1)));
  }

  @Test
  void uefiGetsIpxeEfiAndIpxeGetsItsMachineScriptOverHttp() throws Exception {
    DhcpResponder r = responder(false);

    assertThat(reply(r, pxe(mac(2), 1, DhcpPacket.DISCOVER, 7, false)).file).isEqualTo("ipxe.efi");
    assertThat(reply(r, pxe(mac(2), 2, DhcpPacket.DISCOVER, 7, true)).file)
        .isEqualTo("http://10.77.0.1:8088/ipxe/52-54-00-00-00-02.ipxe");
    DhcpPacket http =
        reply(
            r,
            DhcpPacket.request(mac(3), 3)
                .type(DhcpPacket.DISCOVER)
                .option(DhcpPacket.CLIENT_ARCH, new byte[] {0, 16})
                .option(DhcpPacket.VENDOR_CLASS, "HTTPClient:Arch:00016:UNDI:003016"));
    assertThat(http.file).isEqualTo("http://10.77.0.1:8088/boot/ipxe.efi");
    assertThat(http.text(DhcpPacket.VENDOR_CLASS)).isEqualTo("HTTPClient");
    // An installed OS renewing its lease gets an address and no boot file.
    DhcpPacket plain = reply(r, DhcpPacket.request(mac(4), 4).type(DhcpPacket.DISCOVER));
    assertThat(plain.yiaddr).isNotZero();
    assertThat(plain.file).isEmpty();
  }

  @Test
  void aStaticLeaseIsAlwaysTheSameAddressAndNeverGivenToAnother() throws Exception {
    DhcpResponder r = responder(false);

    DhcpPacket offer = reply(r, pxe(mac(0x99), 1, DhcpPacket.DISCOVER, 0, false));
    assertThat(DhcpPacket.dotted(offer.yiaddr)).isEqualTo("10.77.0.50");
    DhcpPacket steal =
        reply(
            r,
            pxe(mac(5), 2, DhcpPacket.DISCOVER, 0, false)
                .address(DhcpPacket.REQUESTED_IP, DhcpPacket.ipv4("10.77.0.50")));
    assertThat(DhcpPacket.dotted(steal.yiaddr)).isNotEqualTo("10.77.0.50");
    DhcpPacket nak =
        reply(
            r,
            pxe(mac(5), 3, DhcpPacket.REQUEST, 0, false)
                .address(DhcpPacket.REQUESTED_IP, DhcpPacket.ipv4("10.77.0.50"))
                .address(DhcpPacket.SERVER_ID, DhcpPacket.ipv4("10.77.0.1")));
    assertThat(nak.messageType()).isEqualTo(DhcpPacket.NAK);
  }

  @Test
  void aFullRangeOffersNothingUntilALeaseIsReleasedOrExpires() throws Exception {
    DhcpResponder r = responder(false);
    for (int i = 1; i <= 4; i++) {
      DhcpPacket offer = reply(r, pxe(mac(i), i, DhcpPacket.DISCOVER, 0, false));
      DhcpPacket ack =
          reply(
              r,
              pxe(mac(i), i, DhcpPacket.REQUEST, 0, false)
                  .address(DhcpPacket.REQUESTED_IP, offer.yiaddr)
                  .address(DhcpPacket.SERVER_ID, DhcpPacket.ipv4("10.77.0.1")));
      assertThat(ack.messageType()).isEqualTo(DhcpPacket.ACK);
    }

    assertThat(reply(r, pxe(mac(9), 9, DhcpPacket.DISCOVER, 0, false))).isNull();

    DhcpPacket.Builder release = DhcpPacket.request(mac(2), 20).type(DhcpPacket.RELEASE);
    release.ciaddr = DhcpPacket.ipv4("10.77.0.101");
    release.address(DhcpPacket.SERVER_ID, DhcpPacket.ipv4("10.77.0.1"));
    assertThat(reply(r, release)).isNull();
    assertThat(DhcpPacket.dotted(reply(r, pxe(mac(9), 10, DhcpPacket.DISCOVER, 0, false)).yiaddr))
        .isEqualTo("10.77.0.101");

    clock.now = clock.now.plus(Duration.ofHours(2));
    assertThat(reply(r, pxe(mac(10), 11, DhcpPacket.DISCOVER, 0, false))).isNotNull();
  }

  @Test
  void aRequestForAnotherServerIsIgnoredAndAForeignAddressIsRefused() throws Exception {
    DhcpResponder r = responder(false);
    reply(r, pxe(mac(1), 1, DhcpPacket.DISCOVER, 0, false));

    assertThat(
            reply(
                r,
                pxe(mac(1), 2, DhcpPacket.REQUEST, 0, false)
                    .address(DhcpPacket.REQUESTED_IP, DhcpPacket.ipv4("10.77.0.100"))
                    .address(DhcpPacket.SERVER_ID, DhcpPacket.ipv4("10.77.0.2"))))
        .isNull();
    DhcpPacket nak =
        reply(
            r,
            pxe(mac(1), 3, DhcpPacket.REQUEST, 0, false)
                .address(DhcpPacket.REQUESTED_IP, DhcpPacket.ipv4("192.168.1.5")));
    assertThat(nak.messageType()).isEqualTo(DhcpPacket.NAK);
    assertThat(nak.text(DhcpPacket.MESSAGE)).contains("not on this subnet");
  }

  @Test
  void aDeclinedAddressIsSetAsideAndAnotherOffered() throws Exception {
    DhcpResponder r = responder(false);
    DhcpPacket offer = reply(r, pxe(mac(1), 1, DhcpPacket.DISCOVER, 0, false));
    DhcpPacket.Builder decline =
        DhcpPacket.request(mac(1), 2)
            .type(DhcpPacket.DECLINE)
            .address(DhcpPacket.REQUESTED_IP, offer.yiaddr)
            .address(DhcpPacket.SERVER_ID, DhcpPacket.ipv4("10.77.0.1"));
    reply(r, decline);

    assertThat(reply(r, pxe(mac(1), 3, DhcpPacket.DISCOVER, 0, false)).yiaddr)
        .isNotEqualTo(offer.yiaddr);
  }

  @Test
  void proxyModeAnswersOnlyBootingClientsWithBootInformationAndNoAddress() throws Exception {
    DhcpResponder r = responder(true);

    DhcpPacket offer = reply(r, pxe(mac(1), 1, DhcpPacket.DISCOVER, 7, false));
    assertThat(offer.messageType()).isEqualTo(DhcpPacket.OFFER);
    assertThat(offer.yiaddr).isZero();
    assertThat(offer.file).isEqualTo("ipxe.efi");
    assertThat(offer.text(DhcpPacket.VENDOR_CLASS)).isEqualTo("PXEClient");
    assertThat(offer.option(DhcpPacket.VENDOR_SPECIFIC)).containsExactly(6, 1, 8, 255);
    assertThat(reply(r, DhcpPacket.request(mac(2), 2).type(DhcpPacket.DISCOVER))).isNull();

    // iPXE's ProxyDHCPREQUEST to port 4011 once it has its address from the site's server.
    DhcpPacket.Builder proxyRequest = pxe(mac(1), 3, DhcpPacket.REQUEST, 0, true);
    proxyRequest.ciaddr = DhcpPacket.ipv4("10.77.0.200");
    byte[] wire = proxyRequest.encode();
    DhcpResponder.Reply ack =
        r.answer(parse(wire), new InetSocketAddress("10.77.0.200", DhcpResponder.PROXY_PORT));
    assertThat(ack.to()).isEqualTo(new InetSocketAddress("10.77.0.200", DhcpResponder.PROXY_PORT));
    assertThat(parse(ack.data()).file)
        .isEqualTo("http://10.77.0.1:8088/ipxe/52-54-00-00-00-01.ipxe");
  }

  /** Reads a 4-byte big-endian option. */
  static final class ByteBufferInts {
    static long of(byte[] b) {
      return java.nio.ByteBuffer.wrap(b).getInt() & 0xffffffffL;
    }
  }
}
