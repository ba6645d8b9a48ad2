package io.bulwark.bmc.ipmi.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.bmc.ipmi.internal.IpmiMessage.Response;
import io.bulwark.testing.FipsProviders;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The pure parts of the protocol: IPMI message checksums, RMCP and RMCP+ framing, IPMI's
 * confidentiality pad for AES-CBC, the integrity AuthCode (tampered packets are refused), the suite
 * 17 lengths, and RAKP's HMAC inputs and key derivation against known answers recorded from {@code
 * ipmitool -I lanplus -C 3 -vvvv} (ipmitool 1.8.19, an independent implementation) logging in to
 * ipmi_sim. BCFIPS in approved-only mode.
 */
class RmcpPacketsTest {
  private static final HexFormat HEX = HexFormat.of();

  @BeforeAll
  static void providers() {
    FipsProviders.install();
  }

  private static byte[] hex(String s) {
    return HEX.parseHex(s.replace(" ", ""));
  }

  @Test
  void aRequestCarriesBothChecksumsAndAResponseIsCheckedAndDecoded() throws Exception {
    byte[] req = IpmiMessage.request(IpmiMessage.NETFN_APP, 0, 1, 0x3b, new byte[] {0x04});
    // ipmitool's Set Session Privilege Level request: 20 18 c8 81 04 3b 04 3c.
    assertThat(HEX.formatHex(req)).isEqualTo("2018c881043b043c");
    byte[] rsp = {(byte) 0x81, 0x1c, 0x63, 0x20, 0x04, 0x3b, 0x00, 0x04, 0};
    rsp[8] = IpmiMessage.checksum(rsp, 3, 5);
    Response r = IpmiMessage.response(rsp);
    assertThat(r.netFn()).isEqualTo(IpmiMessage.NETFN_APP);
    assertThat(r.rqSeq()).isEqualTo(1);
    assertThat(r.command()).isEqualTo(0x3b);
    assertThat(r.completionCode()).isZero();
    assertThat(r.data()).containsExactly(0x04);
    rsp[7] ^= 1;
    assertThatThrownBy(() -> IpmiMessage.response(rsp)).hasMessageContaining("checksum");
    assertThatThrownBy(() -> IpmiMessage.response(new byte[3])).hasMessageContaining("shorter");
  }

  @Test
  void theConfidentialityPadIsOneTwoThreeThenItsLengthToWholeBlocks() throws Exception {
    for (int n = 0; n <= 40; n++) {
      byte[] data = new byte[n];
      Arrays.fill(data, (byte) 0xaa);
      byte[] padded = SessionCrypto.pad(data);
      assertThat(padded.length % 16).isZero();
      int padLength = padded[padded.length - 1];
      assertThat(padLength).isBetween(0, 15);
      for (int i = 0; i < padLength; i++) {
        assertThat(padded[n + i]).isEqualTo((byte) (i + 1));
      }
      assertThat(SessionCrypto.unpad(padded)).isEqualTo(data);
    }
    assertThat(HEX.formatHex(SessionCrypto.pad(new byte[8]))).endsWith("01020304050607" + "07");
    byte[] bad = SessionCrypto.pad(new byte[5]);
    bad[6] = 9;
    assertThatThrownBy(() -> SessionCrypto.unpad(bad)).hasMessageContaining("pad");
    byte[] tooLong = new byte[16];
    tooLong[15] = 16;
    assertThatThrownBy(() -> SessionCrypto.unpad(tooLong)).hasMessageContaining("0 to 15");
  }

  private static SessionCrypto crypto(CipherSuite suite) throws Exception {
    byte[] k = new byte[suite.rakpCodeLength];
    Arrays.fill(k, (byte) 7);
    return new SessionCrypto(suite, k, k, SecureRandom.getInstance("DEFAULT", "BCFIPS"));
  }

  @Test
  void aSuite17SessionPacketRoundTripsAndATamperedOneIsRefused() throws Exception {
    SessionCrypto c = crypto(CipherSuite.SUITE_17);
    byte[] msg = IpmiMessage.request(IpmiMessage.NETFN_CHASSIS, 0, 5, 0x01, new byte[0]);
    byte[] packet = RmcpPackets.v20(RmcpPackets.PAYLOAD_IPMI, 0x01020304, 9, msg, c);
    assertThat(packet[4]).isEqualTo((byte) 0x06);
    assertThat(packet[5]).isEqualTo((byte) 0xc0);
    assertThat((packet.length - 4 - 16) % 4).isZero();
    RmcpPackets.Packet p = RmcpPackets.parse(packet, c);
    assertThat(p.sessionId()).isEqualTo(0x01020304);
    assertThat(p.seq()).isEqualTo(9);
    assertThat(p.payload()).isEqualTo(msg);
    // 16 bytes of HMAC-SHA256-128 close the packet: integrity pad, pad length, next header 07h.
    int lengthOfPayload = (packet[14] & 0xff) | (packet[15] & 0xff) << 8;
    assertThat(packet.length - 16 - lengthOfPayload).isIn(2 + 16, 3 + 16, 4 + 16, 5 + 16);
    for (int i : new int[] {5, 8, 12, 20, packet.length - 20, packet.length - 1}) {
      byte[] tampered = packet.clone();
      tampered[i] ^= 0x01;
      assertThatThrownBy(() -> RmcpPackets.parse(tampered, c))
          .as("byte " + i)
          .isInstanceOf(Wire.MalformedException.class);
    }
    byte[] plain = RmcpPackets.v20(RmcpPackets.PAYLOAD_IPMI, 0x01020304, 10, msg, null);
    assertThatThrownBy(() -> RmcpPackets.parse(plain, c))
        .hasMessageContaining("not encrypted and authenticated");
    assertThatThrownBy(() -> RmcpPackets.parse(packet, crypto(CipherSuite.SUITE_3)))
        .isInstanceOf(Wire.MalformedException.class);
  }

  @Test
  void anIpmi15SessionlessPacketFramesTheMessage() throws Exception {
    byte[] msg =
        IpmiMessage.request(IpmiMessage.NETFN_APP, 0, 0, 0x38, new byte[] {(byte) 0x8e, 4});
    byte[] packet = RmcpPackets.v15(msg);
    assertThat(HEX.formatHex(packet, 0, 14)).isEqualTo("0600ff0700000000000000000009");
    RmcpPackets.Packet p = RmcpPackets.parse(packet, null);
    assertThat(p.authType()).isEqualTo(RmcpPackets.AUTH_NONE);
    assertThat(p.payload()).isEqualTo(msg);
    assertThatThrownBy(() -> RmcpPackets.parse(new byte[] {1, 2}, null))
        .hasMessageContaining("not an RMCP packet");
    assertThatThrownBy(() -> RmcpPackets.parse(Arrays.copyOf(packet, 16), null))
        .hasMessageContaining("bytes long");
  }

  /** Known answers from ipmitool -vvvv logging in to ipmi_sim as admin / Bmc-Pass-42, suite 3. */
  @Test
  void rakpHmacsAndSessionKeysMatchIpmitoolsForTheSameLogin() throws Exception {
    byte[] sidm = hex("a4a3a2a0");
    byte[] sidc = hex("02010000");
    byte[] rm = hex("713a60cb455fabc7f2904cca11f7b716");
    byte[] rc = hex("b167f1673042d995ce2b5332b2a1d101");
    byte[] guid = hex("a123456789abcdefa123456789abcdef");
    byte[] name = "admin".getBytes();
    byte role = 0x14;
    byte[] kuid = Arrays.copyOf("Bmc-Pass-42".getBytes(), 20);
    Mac withKuid = SessionCrypto.mac("HmacSHA1", kuid);
    assertThat(
            HEX.formatHex(
                withKuid.doFinal(RakpHandshake.rakp2Input(sidm, sidc, rm, rc, guid, role, name))))
        .isEqualTo("af02866abd67cd40d622b4c9162be9bdef64626d");
    assertThat(HEX.formatHex(withKuid.doFinal(RakpHandshake.rakp3Input(rc, sidm, role, name))))
        .isEqualTo("c13c831cd1d44344094ee662db08158e3424e776");
    byte[] sik = withKuid.doFinal(RakpHandshake.sikInput(rm, rc, role, name));
    assertThat(HEX.formatHex(sik)).isEqualTo("a5223981782ac8867b0215bc2ee1dac05f01c81c");
    Mac withSik = SessionCrypto.mac("HmacSHA1", sik);
    assertThat(HEX.formatHex(Arrays.copyOf(withSik.doFinal(Wire.concat(rm, sidc, guid)), 12)))
        .isEqualTo("903160748909fe97f39ae8b7");
    byte[] k1 = withSik.doFinal(RakpHandshake.constant(1));
    byte[] k2 = withSik.doFinal(RakpHandshake.constant(2));
    assertThat(HEX.formatHex(k1)).isEqualTo("2f8a854ed5d82f0c42f91fd27251202a88b0a3ba");
    assertThat(HEX.formatHex(k2)).isEqualTo("bd1549d1770bc8f58a8306e9c695531ec69e23d4");
    // The AuthCode of ipmitool's first session packet (48 bytes covered, HMAC-SHA1-96).
    SessionCrypto c =
        new SessionCrypto(
            CipherSuite.SUITE_3, k1, k2, SecureRandom.getInstance("DEFAULT", "BCFIPS"));
    byte[] covered =
        hex(
            "06c0020100000300000020003e9278ad125eb9a49cdfc05eaa397281664483c8a9673bfa092b70227a265eadffff0207");
    assertThat(HEX.formatHex(c.authCode(covered, 0, covered.length)))
        .isEqualTo("a7abe701e1269da1ae1aee44");
  }

  @Test
  void suite17UsesSha256LengthsAndBcfipsAcceptsThe20ByteKuidInApprovedMode() throws Exception {
    assertThat(CipherSuite.SUITE_17.rakpCodeLength).isEqualTo(32);
    assertThat(CipherSuite.SUITE_17.rakp4Length).isEqualTo(16);
    assertThat(CipherSuite.SUITE_17.integrityLength).isEqualTo(16);
    assertThat(CipherSuite.SUITE_17.toString())
        .isEqualTo("17 (RAKP-HMAC-SHA256, HMAC-SHA256-128, AES-CBC-128)");
    assertThat(org.bouncycastle.crypto.CryptoServicesRegistrar.isInApprovedOnlyMode()).isTrue();
    Mac m = SessionCrypto.mac("HmacSHA256", new byte[20]);
    assertThat(m.getProvider().getName()).isEqualTo("BCFIPS");
    assertThat(m.doFinal(new byte[3])).hasSize(32);
    assertThatThrownBy(() -> SessionCrypto.mac("HmacSHA256", new byte[13]))
        .as("BCFIPS refuses HMAC keys under 112 bits in approved mode")
        .hasMessageContaining("112 bits");
  }

  @Test
  void cipherSuiteRecordsAreParsed() {
    byte[] records = hex("c0 00 00 40 80 c0 03 01 41 81 c1 11 00 00 00 03 44 81 c0 11 03 44 81");
    assertThat(ChannelCapabilities.parse(records))
        .containsExactly(
            new ChannelCapabilities.Offered(0, 0, 0, 0),
            new ChannelCapabilities.Offered(3, 1, 1, 1),
            new ChannelCapabilities.Offered(17, 3, 4, 1),
            new ChannelCapabilities.Offered(17, 3, 4, 1));
  }
}
