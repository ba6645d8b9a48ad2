package io.bulwark.pxe.internal;

/**
 * A DHCP or TFTP packet that does not follow its protocol: it is counted under {@link #kind()} and
 * dropped (or, for TFTP, answered with an error), never acted on.
 */
final class MalformedPacketException extends Exception {
  private static final long serialVersionUID = 1L;
  private final String kind;

  MalformedPacketException(String kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  /** Returns a short name for what was wrong, used as a metric label, e.g. "short", "option". */
  String kind() {
    return kind;
  }
}
