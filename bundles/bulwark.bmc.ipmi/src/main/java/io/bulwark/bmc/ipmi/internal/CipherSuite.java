package io.bulwark.bmc.ipmi.internal;

/**
 * The RMCP+ cipher suites this driver can speak (IPMI v2.0 table 22-20). The product uses only
 * {@link #SUITE_17}: RAKP-HMAC-SHA256 authentication, HMAC-SHA256-128 integrity and AES-CBC-128
 * confidentiality. {@link #SUITE_3} (RAKP-HMAC-SHA1, HMAC-SHA1-96, AES-CBC-128) exists only so that
 * the tests can run the whole protocol against OpenIPMI's {@code ipmi_sim}, which has no SHA-256;
 * the DS component never selects it.
 */
enum CipherSuite {
  SUITE_17(17, 0x03, 0x04, 0x01, "HmacSHA256", 32, 16, 16),
  SUITE_3(3, 0x01, 0x01, 0x01, "HmacSHA1", 20, 12, 12);

  final int id;
  final int authentication;
  final int integrity;
  final int confidentiality;

  /** The JCA name of the HMAC used for RAKP, the session keys and integrity. */
  final String mac;

  /** Length of the RAKP 2 and RAKP 3 key exchange authentication codes (the whole HMAC). */
  final int rakpCodeLength;

  /** Length of the RAKP 4 integrity check value (the HMAC truncated). */
  final int rakp4Length;

  /** Length of the AuthCode that closes each session packet (the HMAC truncated). */
  final int integrityLength;

  CipherSuite(
      int id,
      int authentication,
      int integrity,
      int confidentiality,
      String mac,
      int rakpCodeLength,
      int rakp4Length,
      int integrityLength) {
    this.id = id;
    this.authentication = authentication;
    this.integrity = integrity;
    this.confidentiality = confidentiality;
    this.mac = mac;
    this.rakpCodeLength = rakpCodeLength;
    this.rakp4Length = rakp4Length;
    this.integrityLength = integrityLength;
  }

  boolean matches(int auth, int integ, int conf) {
    return auth == authentication && integ == integrity && conf == confidentiality;
  }

  /** Returns e.g. "17 (RAKP-HMAC-SHA256, HMAC-SHA256-128, AES-CBC-128)". */
  @Override
  public String toString() {
    return describe(id, authentication, integrity, confidentiality);
  }

  static String describe(int id, int auth, int integ, int conf) {
    return id + " (" + authName(auth) + ", " + integrityName(integ) + ", " + confName(conf) + ")";
  }

  static String authName(int a) {
    return switch (a) {
      case 0x00 -> "RAKP-none";
      case 0x01 -> "RAKP-HMAC-SHA1";
      case 0x02 -> "RAKP-HMAC-MD5";
      case 0x03 -> "RAKP-HMAC-SHA256";
      default -> String.format("authentication 0x%02x", a);
    };
  }

  static String integrityName(int i) {
    return switch (i) {
      case 0x00 -> "no integrity";
      case 0x01 -> "HMAC-SHA1-96";
      case 0x02 -> "HMAC-MD5-128";
      case 0x03 -> "MD5-128";
      case 0x04 -> "HMAC-SHA256-128";
      default -> String.format("integrity 0x%02x", i);
    };
  }

  static String confName(int c) {
    return switch (c) {
      case 0x00 -> "no encryption";
      case 0x01 -> "AES-CBC-128";
      case 0x02 -> "xRC4-128";
      case 0x03 -> "xRC4-40";
      default -> String.format("confidentiality 0x%02x", c);
    };
  }
}
