package io.bulwark.web.internal;

import java.util.regex.Pattern;

/**
 * The validated, immutable form of {@link WebConfig}: the address and port the admin plane listens
 * on.
 *
 * @param bindAddress an IP literal (IPv6 without brackets) or a host name
 * @param httpsPort 0 to 65535; 0 asks the system for a free port
 */
record WebOptions(String bindAddress, int httpsPort) {
  private static final Pattern HOST_OR_IPV4 = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.-]{0,252}");
  private static final Pattern IPV6 =
      Pattern.compile("[0-9A-Fa-f]{0,4}(:[0-9A-Fa-f.]{0,15}){2,8}(%[A-Za-z0-9_.-]+)?");

  WebOptions {
    if (bindAddress == null || bindAddress.isBlank()) {
      throw new IllegalArgumentException("bindAddress must be set, e.g. 0.0.0.0 or 127.0.0.1");
    }
    bindAddress = bindAddress.strip();
    if (bindAddress.startsWith("[") && bindAddress.endsWith("]")) {
      bindAddress = bindAddress.substring(1, bindAddress.length() - 1);
    }
    if (!HOST_OR_IPV4.matcher(bindAddress).matches() && !IPV6.matcher(bindAddress).matches()) {
      throw new IllegalArgumentException(
          "bindAddress is not an IP address or host name: '" + bindAddress + "'");
    }
    if (httpsPort < 0 || httpsPort > 65535) {
      throw new IllegalArgumentException("httpsPort must be between 0 and 65535: " + httpsPort);
    }
  }

  /**
   * Validates the configuration.
   *
   * @throws IllegalArgumentException naming the property that is wrong
   */
  static WebOptions from(WebConfig config) {
    return new WebOptions(config.bindAddress(), config.httpsPort());
  }

  /** Returns true if the listener binds every interface. */
  boolean wildcard() {
    return bindAddress.equals("0.0.0.0")
        || bindAddress.equals("::")
        || bindAddress.equals("0:0:0:0:0:0:0:0");
  }
}
