package io.bulwark.api.machine;

import java.util.Locale;
import java.util.Optional;

/** How Bulwark talks to a machine's BMC. */
public enum BmcProtocol {
  /** DMTF Redfish over HTTPS (default port 443). */
  REDFISH(443),
  /** IPMI 2.0 over LAN, RMCP+ (default port 623/udp). */
  IPMI(623);

  private final int defaultPort;

  BmcProtocol(int defaultPort) {
    this.defaultPort = defaultPort;
  }

  /** Returns the port the protocol uses unless the machine says otherwise. */
  public int defaultPort() {
    return defaultPort;
  }

  /** Returns the protocol's name in the API: {@code redfish} or {@code ipmi}. */
  public String apiName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Returns the protocol an API name stands for, if any. */
  public static Optional<BmcProtocol> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    for (BmcProtocol p : values()) {
      if (p.apiName().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
