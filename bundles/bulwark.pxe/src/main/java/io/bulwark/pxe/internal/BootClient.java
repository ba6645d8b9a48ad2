package io.bulwark.pxe.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What a booting machine says about itself in its DHCP request: whether it is a PXE or UEFI HTTP
 * boot client (vendor class, option 60), its firmware architecture (option 93, RFC 4578 and the
 * IANA registry), whether it already runs iPXE (user class "iPXE", option 77), and its SMBIOS UUID
 * (option 97) when it sends one.
 */
record BootClient(String mac, Kind kind, Arch arch, boolean ipxe, String uuid) {

  enum Kind {
    /** Not a network-boot client (an installed OS renewing its lease). */
    NONE,
    /** A PXE ROM or iPXE ({@code PXEClient}). */
    PXE,
    /** UEFI HTTP boot ({@code HTTPClient}): the boot file is a URL, and the reply says so. */
    HTTP
  }

  /** Firmware architectures a boot loader is chosen for (option 93 values). */
  enum Arch {
    BIOS(0, "x86 BIOS"),
    UEFI_IA32(6, "x86 UEFI"),
    UEFI_X64(7, "x86-64 UEFI"),
    UEFI_BC(9, "x86-64 UEFI (EFI BC)"),
    UEFI_ARM64(11, "ARM64 UEFI"),
    HTTP_X64(16, "x86-64 UEFI HTTP"),
    HTTP_ARM64(19, "ARM64 UEFI HTTP"),
    UNKNOWN(-1, "unknown");

    final int code;
    final String label;

    Arch(int code, String label) {
      this.code = code;
      this.label = label;
    }

    static Arch of(int code) {
      for (Arch a : values()) {
        if (a.code == code) {
          return a;
        }
      }
      return UNKNOWN;
    }

    boolean uefi() {
      return this != BIOS && this != UNKNOWN;
    }

    boolean arm64() {
      return this == UEFI_ARM64 || this == HTTP_ARM64;
    }
  }

  static BootClient of(DhcpPacket p) {
    String vendor = p.text(DhcpPacket.VENDOR_CLASS);
    Kind kind = Kind.NONE;
    if (vendor != null && vendor.startsWith("PXEClient")) {
      kind = Kind.PXE;
    } else if (vendor != null && vendor.startsWith("HTTPClient")) {
      kind = Kind.HTTP;
    }
    Arch arch = Arch.BIOS;
    byte[] a = p.option(DhcpPacket.CLIENT_ARCH);
    if (a != null && a.length >= 2) {
      arch = Arch.of(((a[0] & 0xff) << 8) | (a[1] & 0xff));
    } else if (vendor != null && vendor.startsWith("PXEClient:Arch:") && vendor.length() >= 20) {
      // "PXEClient:Arch:00007:UNDI:003016" carries the architecture when option 93 is missing.
      try {
        arch = Arch.of(Integer.parseInt(vendor.substring(15, 20)));
      } catch (NumberFormatException e) {
        arch = Arch.UNKNOWN;
      }
    }
    return new BootClient(p.mac(), kind, arch, userClassIsIpxe(p), uuid(p));
  }

  /**
   * Returns true if option 77 names iPXE. RFC 3004 frames each class with a length byte; iPXE and
   * most firmware send the bare string instead: both are read.
   */
  private static boolean userClassIsIpxe(DhcpPacket p) {
    byte[] v = p.option(DhcpPacket.USER_CLASS);
    if (v == null) {
      return p.has(DhcpPacket.IPXE_ENCAPSULATED);
    }
    String bare = new String(v, StandardCharsets.ISO_8859_1);
    if (bare.equals("iPXE")) {
      return true;
    }
    int i = 0;
    while (i < v.length) {
      int n = v[i] & 0xff;
      if (n == 0 || i + 1 + n > v.length) {
        return false;
      }
      if (new String(v, i + 1, n, StandardCharsets.ISO_8859_1).equals("iPXE")) {
        return true;
      }
      i += 1 + n;
    }
    return false;
  }

  private static String uuid(DhcpPacket p) {
    byte[] v = p.option(DhcpPacket.CLIENT_UUID);
    if (v == null || v.length != 17 || v[0] != 0) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(v, 1, 16);
    // SMBIOS stores the first three fields little-endian (RFC 4578 section 2.3 refers to it).
    int d1 = Integer.reverseBytes(b.getInt());
    short d2 = Short.reverseBytes(b.getShort());
    short d3 = Short.reverseBytes(b.getShort());
    long rest = b.getLong();
    return String.format(
            Locale.ROOT,
            "%08x-%04x-%04x-%04x-%012x",
            d1,
            d2 & 0xffff,
            d3 & 0xffff,
            (rest >>> 48) & 0xffff,
            rest & 0xffffffffffffL)
        .toLowerCase(Locale.ROOT);
  }
}
