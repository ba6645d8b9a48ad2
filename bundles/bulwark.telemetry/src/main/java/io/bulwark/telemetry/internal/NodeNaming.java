package io.bulwark.telemetry.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.bulwark.lib.exposition.DcgmBlanks;
import io.bulwark.lib.exposition.ExpositionLine;

/**
 * Decides which node a scraped sample belongs to: dcgm-exporter's {@code hostname} label (its
 * spelling since 4.x) or {@code Hostname} (before) if the sample has one and it is not one of
 * DCGM's string blanks, else the {@code node} label of the target's file_sd entry, else the host
 * part of the target's address. A name that is not a valid {@link NodeId} is made one (characters
 * NodeId does not allow become '-').
 */
final class NodeNaming {
  /** The label dcgm-exporter names the node with, as it spells it today. */
  static final String HOSTNAME_LABEL = "hostname";

  /** The label older dcgm-exporters name the node with. */
  static final String OLD_HOSTNAME_LABEL = "Hostname";

  /** The file_sd label that names the node of a target. */
  static final String NODE_LABEL = "node";

  private NodeNaming() {}

  /**
   * Returns the line's host name: its {@code hostname} label, else its {@code Hostname} label; null
   * if it has neither or the one it has is a DCGM string blank.
   */
  static String hostname(ExpositionLine line) {
    int index = line.labelIndex(HOSTNAME_LABEL);
    if (index < 0) {
      index = line.labelIndex(OLD_HOSTNAME_LABEL);
    }
    if (index < 0) {
      return null;
    }
    String value = line.labelValue(index);
    return DcgmBlanks.isBlank(value) ? null : value;
  }

  /** Returns the node of {@code target}'s samples that carry no {@code Hostname} label. */
  static NodeId forTarget(ScrapeTarget target) {
    NodeId labelled = fromName(target.labels().get(NODE_LABEL));
    if (labelled != null) {
      return labelled;
    }
    NodeId host = fromName(host(target.address()));
    return host != null ? host : NodeId.of("unknown-node");
  }

  /**
   * Returns the node of a sample whose {@code Hostname} label is {@code hostname}, falling back to
   * the target.
   */
  static NodeId forHostname(String hostname, ScrapeTarget target) {
    NodeId named = fromName(hostname);
    return named != null ? named : forTarget(target);
  }

  /** Returns {@code name} as a valid NodeId, or null if it is null or blank. */
  static NodeId fromName(String name) {
    if (name == null || name.isBlank()) {
      return null;
    }
    String trimmed = name.strip();
    if (NodeId.isValid(trimmed)) {
      return NodeId.of(trimmed);
    }
    StringBuilder valid = new StringBuilder(trimmed.length() + 5);
    for (int i = 0; i < trimmed.length(); i++) {
      char c = trimmed.charAt(i);
      boolean allowed =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == ':'
              || c == '-';
      valid.append(allowed ? c : '-');
    }
    char first = valid.charAt(0);
    if (first == '.' || first == '_' || first == ':' || first == '-') {
      valid.insert(0, "node-");
    }
    valid.setLength(Math.min(valid.length(), 253));
    return NodeId.of(valid.toString());
  }

  /** Returns the host part of {@code host:port}, {@code [v6]:port} or a bare host. */
  static String host(String address) {
    if (address.startsWith("[")) {
      int close = address.indexOf(']');
      return close > 0 ? address.substring(1, close) : address.substring(1);
    }
    int colon = address.lastIndexOf(':');
    return colon >= 0 && address.indexOf(':') == colon ? address.substring(0, colon) : address;
  }
}
