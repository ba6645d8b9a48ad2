package io.bulwark.pxe.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class DhcpPacketTest {
  static final byte[] MAC = HexFormat.ofDelimiter(":").parseHex("52:54:00:12:34:56");

  /**
   * A DHCPDISCOVER as QEMU's iPXE ROM sends it (the options and their order as iPXE 1.0.0 writes
   * them in dhcp_create_request: 53, 57, 93, 94, 60, 77, 175, 61, 97, 55).
   */
  static byte[] ipxeDiscover() {
    return DhcpPacket.request(MAC, 0x1234abcd)
        .type(DhcpPacket.DISCOVER)
        .option(DhcpPacket.MAX_MESSAGE_SIZE, new byte[] {0x05, (byte) 0xc0})
        .option(DhcpPacket.CLIENT_ARCH, new byte[] {0, 0})
        .option(DhcpPacket.CLIENT_NDI, new byte[] {1, 2, 1})
        .option(DhcpPacket.VENDOR_CLASS, "PXEClient:Arch:00000:UNDI:002001")
        .option(DhcpPacket.USER_CLASS, "iPXE")
        .option(
            DhcpPacket.IPXE_ENCAPSULATED,
            new byte[] {(byte) 0xb1, 5, 1, 0x10, (byte) 0xec, (byte) 0x81, 0x39})
        .option(DhcpPacket.CLIENT_ID, new byte[] {1, 0x52, 0x54, 0, 0x12, 0x34, 0x56})
        .option(
            DhcpPacket.CLIENT_UUID,
            HexFormat.of().parseHex("00" + "33221100" + "5544" + "7766" + "8899aabbccddeeff"))
        .option(
            DhcpPacket.PARAMETER_LIST,
            new byte[] {1, 3, 6, 7, 12, 15, 17, 26, 43, 60, 66, 67, (byte) 175})
        .encode();
  }

  @Test
  void aDiscoverReadsBackFieldByField() throws Exception {
    byte[] wire = ipxeDiscover();
    assertThat(wire).hasSizeGreaterThanOrEqualTo(DhcpPacket.MIN_SIZE);

    DhcpPacket p = DhcpPacket.parse(wire, wire.length);

    assertThat(p.op).isEqualTo(DhcpPacket.BOOTREQUEST);
    assertThat(p.xid).isEqualTo(0x1234abcd);
    assertThat(p.mac()).isEqualTo("52:54:00:12:34:56");
    assertThat(p.messageType()).isEqualTo(DhcpPacket.DISCOVER);
    assertThat(p.text(DhcpPacket.VENDOR_CLASS)).isEqualTo("PXEClient:Arch:00000:UNDI:002001");
    BootClient c = BootClient.of(p);
    assertThat(c.kind()).isEqualTo(BootClient.Kind.PXE);
    assertThat(c.arch()).isEqualTo(BootClient.Arch.BIOS);
    assertThat(c.ipxe()).isTrue();
    assertThat(c.uuid()).isEqualTo("00112233-4455-6677-8899-aabbccddeeff");
  }

  @Test
  void architecturesAndUserClassesAreReadAsFirmwareSendsThem() throws Exception {
    byte[] uefi =
        DhcpPacket.request(MAC, 1)
            .type(DhcpPacket.DISCOVER)
            .option(DhcpPacket.CLIENT_ARCH, new byte[] {0, 7})
            .option(DhcpPacket.VENDOR_CLASS, "PXEClient:Arch:00007:UNDI:003016")
            .encode();
    BootClient c = BootClient.of(DhcpPacket.parse(uefi, uefi.length));
    assertThat(c.arch()).isEqualTo(BootClient.Arch.UEFI_X64);
    assertThat(c.ipxe()).isFalse();
    assertThat(DhcpResponder.loader(c.arch())).isEqualTo("ipxe.efi");

    byte[] http =
        DhcpPacket.request(MAC, 2)
            .type(DhcpPacket.DISCOVER)
            .option(DhcpPacket.CLIENT_ARCH, new byte[] {0, 19})
            .option(DhcpPacket.VENDOR_CLASS, "HTTPClient:Arch:00019:UNDI:003016")
            // RFC 3004 framing: a length byte before each class
            .option(DhcpPacket.USER_CLASS, new byte[] {3, 'a', 'b', 'c', 4, 'i', 'P', 'X', 'E'})
            .encode();
    BootClient h = BootClient.of(DhcpPacket.parse(http, http.length));
    assertThat(h.kind()).isEqualTo(BootClient.Kind.HTTP);
    assertThat(h.arch()).isEqualTo(BootClient.Arch.HTTP_ARM64);
    assertThat(h.ipxe()).isTrue();

    byte[] noArch =
        DhcpPacket.request(MAC, 3)
            .type(DhcpPacket.DISCOVER)
            .option(DhcpPacket.VENDOR_CLASS, "PXEClient:Arch:00011:UNDI:003016")
            .encode();
    assertThat(BootClient.of(DhcpPacket.parse(noArch, noArch.length)).arch())
        .isEqualTo(BootClient.Arch.UEFI_ARM64);
  }

  @Test
  void longAndRepeatedOptionsAreJoinedAndSplit() throws Exception {
    byte[] big = new byte[300];
    for (int i = 0; i < big.length; i++) {
      big[i] = (byte) i;
    }
    byte[] wire = DhcpPacket.request(MAC, 4).type(DhcpPacket.REQUEST).option(43, big).encode();

    DhcpPacket p = DhcpPacket.parse(wire, wire.length);

    assertThat(p.option(43)).isEqualTo(big); // split into 255 + 45 on the wire, joined on reading
  }

  @Test
  void optionsCarriedInTheFileFieldUnderOverloadAreRead() throws Exception {
    byte[] wire =
        DhcpPacket.request(MAC, 5)
            .type(DhcpPacket.DISCOVER)
            .option(DhcpPacket.OVERLOAD, new byte[] {1})
            .encode();
    // Put option 12 "node7" and an end into the file field (offset 108).
    byte[] inFile = {12, 5, 'n', 'o', 'd', 'e', '7', (byte) 255};
    System.arraycopy(inFile, 0, wire, 108, inFile.length);

    DhcpPacket p = DhcpPacket.parse(wire, wire.length);

    assertThat(p.text(DhcpPacket.HOSTNAME)).isEqualTo("node7");
    assertThat(p.file).isEmpty();
  }

  @Test
  void malformedMessagesAreRefusedWithTheirKind() {
    byte[] good = ipxeDiscover();
    assertKind(new byte[100], 100, "short");
    byte[] op = good.clone();
    op[0] = 9;
    assertKind(op, op.length, "op");
    byte[] hlen = good.clone();
    hlen[2] = 17;
    assertKind(hlen, hlen.length, "hlen");
    byte[] cookie = good.clone();
    cookie[236] = 0;
    assertKind(cookie, cookie.length, "cookie");
    byte[] overrun = good.clone();
    overrun[240] = 53;
    overrun[241] = (byte) 250; // runs past the end of the datagram
    assertKind(overrun, 260, "option");
    byte[] cut = good.clone();
    assertKind(cut, 241, "option"); // the first option's length byte is missing
    byte[] type = DhcpPacket.request(MAC, 6).type(42).encode();
    assertKind(type, type.length, "type");
    assertKind(new byte[2000], 2000, "long");
  }

  private static void assertKind(byte[] data, int length, String kind) {
    assertThatThrownBy(() -> DhcpPacket.parse(data, length))
        .isInstanceOf(MalformedPacketException.class)
        .extracting(e -> ((MalformedPacketException) e).kind())
        .isEqualTo(kind);
  }

  @Test
  void addressesAreWrittenInNetworkOrder() {
    byte[] wire =
        DhcpPacket.request(MAC, 7)
            .type(DhcpPacket.OFFER)
            .address(DhcpPacket.ROUTER, DhcpPacket.ipv4("10.77.0.1"))
            .encode();
    ByteBuffer b = ByteBuffer.wrap(wire, 240, wire.length - 240);
    assertThat(b.get()).isEqualTo((byte) 53);
    b.position(b.position() + 2);
    assertThat(b.get()).isEqualTo((byte) 3);
    assertThat(b.get()).isEqualTo((byte) 4);
    assertThat(new byte[] {b.get(), b.get(), b.get(), b.get()}).containsExactly(10, 77, 0, 1);
    assertThat(DhcpPacket.dotted(DhcpPacket.ipv4("192.168.200.17"))).isEqualTo("192.168.200.17");
  }
}
