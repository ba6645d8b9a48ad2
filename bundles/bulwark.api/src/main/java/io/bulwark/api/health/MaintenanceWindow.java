package io.bulwark.api.health;

import io.bulwark.api.fleet.NodeId;
import java.time.Instant;
import java.util.Objects;

/**
 * A node or one GPU in maintenance until a time: its findings are still detected, stored and shown,
 * but not notified, so planned work does not page anyone.
 *
 * @param id stable identifier
 * @param node the node
 * @param gpu the GPU index, or -1 for the whole node
 * @param from when it started
 * @param until when it ends by itself
 * @param reason why, in the words of whoever set it
 * @param by who set it (user name or token id)
 * @since 1.4
 */
public record MaintenanceWindow(
    String id, NodeId node, int gpu, Instant from, Instant until, String reason, String by) {

  public MaintenanceWindow {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(until, "until");
    reason = Objects.requireNonNullElse(reason, "");
    Objects.requireNonNull(by, "by");
    if (gpu < -1) {
      throw new IllegalArgumentException("gpu is -1 (the whole node) or an index, not " + gpu);
    }
  }

  /** Returns true if the window covers the finding's node and GPU at {@code at}. */
  public boolean covers(Finding f, Instant at) {
    return node.equals(f.node())
        && (gpu == -1 || gpu == f.gpu())
        && !at.isBefore(from)
        && at.isBefore(until);
  }
}
