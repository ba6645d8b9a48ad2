package io.bulwark.pxe.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The provisioning subnet as the DHCP server serves it, checked: the server's own address on it,
 * the dynamic range for machines it does not know yet, static leases, what it tells clients
 * (router, DNS, domain, lease time), and where boot files are served from. In proxy mode it hands
 * out no address, only boot information, next to the site's own DHCP server.
 */
record DhcpSettings(
    boolean proxy,
    int server,
    int network,
    int mask,
    int rangeStart,
    int rangeEnd,
    int router,
    List<Integer> dns,
    String domain,
    Duration leaseTime,
    Map<String, Integer> fixed,
    int httpPort) {

  DhcpSettings {
    Objects.requireNonNull(leaseTime, "leaseTime");
    dns = List.copyOf(dns);
    fixed = Map.copyOf(fixed);
    if (!proxy) {
      if ((server & mask) != network) {
        throw new IllegalArgumentException(
            "the server address "
                + DhcpPacket.dotted(server)
                + " is not on the provisioning subnet "
                + DhcpPacket.dotted(network)
                + "/"
                + Integer.bitCount(mask));
      }
      if ((rangeStart & mask) != network
          || (rangeEnd & mask) != network
          || Integer.compareUnsigned(rangeStart, rangeEnd) > 0) {
        throw new IllegalArgumentException(
            "the dynamic range "
                + DhcpPacket.dotted(rangeStart)
                + "-"
                + DhcpPacket.dotted(rangeEnd)
                + " is not an ascending range inside "
                + DhcpPacket.dotted(network)
                + "/"
                + Integer.bitCount(mask));
      }
      for (Map.Entry<String, Integer> f : fixed.entrySet()) {
        if ((f.getValue() & mask) != network) {
          throw new IllegalArgumentException(
              "the static lease of "
                  + f.getKey()
                  + " ("
                  + DhcpPacket.dotted(f.getValue())
                  + ") is not on the provisioning subnet");
        }
      }
    }
    if (leaseTime.toSeconds() < 60) {
      throw new IllegalArgumentException("a lease of " + leaseTime + " is shorter than a minute");
    }
  }

  int broadcast() {
    return network | ~mask;
  }

  int rangeSize() {
    return rangeEnd - rangeStart + 1;
  }

  String serverText() {
    return DhcpPacket.dotted(server);
  }
}
