package io.bulwark.bmc.ipmi.internal;

import java.nio.charset.StandardCharsets;

/**
 * The product and board areas of FRU device 0 (IPMI Platform Management FRU Information Storage
 * Definition v1.0, sections 10 and 11): manufacturer, product name and serial number, product area
 * first. Fields that are missing or malformed are "".
 */
record FruInfo(String manufacturer, String product, String serial) {
  static final FruInfo NONE = new FruInfo("", "", "");

  static FruInfo parse(byte[] fru) {
    if (fru.length < 8 || fru[0] != 0x01) {
      return NONE;
    }
    String[] product = area(fru, (fru[4] & 0xff) * 8, 3, 4);
    String[] board = area(fru, (fru[3] & 0xff) * 8, 6, 2);
    return new FruInfo(
        first(product[0], board[0]), first(product[1], board[1]), first(product[2], board[2]));
  }

  private static String first(String a, String b) {
    return a.isEmpty() ? b : a;
  }

  /**
   * Reads the area at {@code at}: after the fixed header of {@code skip} bytes, type/length fields;
   * returns fields 0 (manufacturer), 1 (name) and the one at {@code serialField}.
   */
  private static String[] area(byte[] fru, int at, int skip, int serialField) {
    String[] out = {"", "", ""};
    if (at == 0 || at + skip > fru.length || fru[at] != 0x01) {
      return out;
    }
    int end = Math.min(fru.length, at + (fru[at + 1] & 0xff) * 8);
    int i = at + skip;
    for (int field = 0; field <= serialField && i < end; field++) {
      int tl = fru[i] & 0xff;
      if (tl == 0xc1) {
        break;
      }
      int length = tl & 0x3f;
      if (i + 1 + length > end) {
        break;
      }
      String value = text(tl >>> 6, fru, i + 1, length);
      if (field == 0) {
        out[0] = value;
      } else if (field == 1) {
        out[1] = value;
      } else if (field == serialField) {
        out[2] = value;
      }
      i += 1 + length;
    }
    return out;
  }

  private static String text(int type, byte[] b, int at, int length) {
    return switch (type) {
      case 3 -> new String(b, at, length, StandardCharsets.ISO_8859_1).strip();
      case 2 -> sixBit(b, at, length);
      case 1 -> bcdPlus(b, at, length);
      default -> "";
    };
  }

  /** 6-bit packed ASCII: four characters in three bytes, each char - 20h. */
  private static String sixBit(byte[] b, int at, int length) {
    StringBuilder s = new StringBuilder();
    int bits = 0;
    int acc = 0;
    for (int i = 0; i < length; i++) {
      acc |= (b[at + i] & 0xff) << bits;
      bits += 8;
      while (bits >= 6) {
        s.append((char) ((acc & 0x3f) + 0x20));
        acc >>>= 6;
        bits -= 6;
      }
    }
    return s.toString().strip();
  }

  private static String bcdPlus(byte[] b, int at, int length) {
    String digits = "0123456789 -.???";
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length; i++) {
      s.append(digits.charAt((b[at + i] & 0xf0) >>> 4)).append(digits.charAt(b[at + i] & 0x0f));
    }
    return s.toString().strip();
  }
}
