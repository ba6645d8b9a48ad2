package io.bulwark.compliance.internal;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The asset a checklist describes: the appliance's host name, fully qualified name, the IPv4
 * address and MAC of the interface that carries its default route (else of its first interface that
 * is up, not a loopback and has an IPv4 address), and its role for STIG Viewer.
 *
 * @param hostName the short host name (never blank: STIG Manager refuses a checklist without one)
 * @param fqdn the fully qualified name, or empty when the resolver knows none
 * @param ip the IPv4 address, or empty
 * @param mac the MAC, as {@code 52:54:00:12:34:56}, or empty
 * @param role STIG Viewer's role ({@code Member Server} for the appliance)
 */
record Asset(String hostName, String fqdn, String ip, String mac, String role) {
  static final String ROLE = "Member Server";

  Asset {
    Objects.requireNonNull(hostName, "hostName");
    if (hostName.isBlank()) {
      throw new IllegalArgumentException("an asset needs a host name");
    }
    Objects.requireNonNull(fqdn, "fqdn");
    Objects.requireNonNull(ip, "ip");
    Objects.requireNonNull(mac, "mac");
    Objects.requireNonNull(role, "role");
  }

  /** Reads the appliance's own identity. */
  static Asset local() {
    String host = readHostName();
    String fqdn = "";
    try {
      String canonical = InetAddress.getLocalHost().getCanonicalHostName();
      if (canonical.contains(".") && !canonical.matches("[0-9.]+")) {
        fqdn = canonical;
      }
    } catch (UnknownHostException e) {
      // no resolver entry for the host: the checklist goes without a FQDN
    }
    Optional<NetworkInterface> nic = primaryInterface();
    String ip = nic.flatMap(Asset::ipv4).orElse("");
    String mac = nic.map(Asset::mac).orElse("");
    return new Asset(host, fqdn, ip, mac, ROLE);
  }

  private static String readHostName() {
    try {
      String fromFile = Files.readString(Path.of("/etc/hostname")).trim();
      if (!fromFile.isEmpty()) {
        return shortName(fromFile);
      }
    } catch (IOException e) {
      // read from the resolver below
    }
    try {
      return shortName(InetAddress.getLocalHost().getHostName());
    } catch (UnknownHostException e) {
      return "bulwark";
    }
  }

  private static String shortName(String name) {
    int dot = name.indexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  private static Optional<NetworkInterface> primaryInterface() {
    try {
      String route = defaultRouteInterface();
      List<NetworkInterface> candidates = new ArrayList<>();
      for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (n.isUp() && !n.isLoopback() && ipv4(n).isPresent()) {
          if (n.getName().equals(route)) {
            return Optional.of(n);
          }
          candidates.add(n);
        }
      }
      return candidates.stream().findFirst();
    } catch (SocketException e) {
      return Optional.empty();
    }
  }

  /** Returns the interface of the default IPv4 route, from {@code /proc/net/route}, or empty. */
  private static String defaultRouteInterface() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/net/route"))) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 2 && "00000000".equals(f[1])) {
          return f[0];
        }
      }
    } catch (IOException e) {
      // not Linux, or no /proc: fall back to the first interface
    }
    return "";
  }

  private static Optional<String> ipv4(NetworkInterface n) {
    for (InterfaceAddress a : n.getInterfaceAddresses()) {
      if (a.getAddress() instanceof Inet4Address v4) {
        return Optional.of(v4.getHostAddress());
      }
    }
    return Optional.empty();
  }

  private static String mac(NetworkInterface n) {
    try {
      byte[] hw = n.getHardwareAddress();
      return hw == null ? "" : HexFormat.ofDelimiter(":").formatHex(hw).toUpperCase(Locale.ROOT);
    } catch (SocketException e) {
      return "";
    }
  }
}
