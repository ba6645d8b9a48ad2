package io.bulwark.scheduler.pbs.internal;

import io.bulwark.api.scheduler.SchedulerNode;
import java.util.Map;

/**
 * One pbsnodes listing, read: the nodes it shows, in its order, and the nodes it names with an
 * error instead (OpenPBS's {@code -F json} reports a node it cannot show as {@code
 * {"Error":"Unknown node "}} and still exits 0).
 */
record PbsListing(Map<String, SchedulerNode> nodes, Map<String, String> errors) {
  PbsListing {
    nodes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(nodes));
    errors = Map.copyOf(errors);
  }
}
