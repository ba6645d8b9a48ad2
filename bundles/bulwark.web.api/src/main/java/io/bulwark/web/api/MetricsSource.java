package io.bulwark.web.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A bundle's metric families on the appliance's {@code /metrics} page, registered as an OSGi
 * service (whiteboard): the fleet (open findings, capacity, scrape health), notifications, later
 * areas. Called on every scrape, on a worker thread: must answer from state the bundle keeps, in
 * milliseconds, without I/O that can block. A source that throws is left out of that scrape (a
 * comment says so), the others are served.
 *
 * @since 1.1
 */
@ConsumerType
public interface MetricsSource {

  /**
   * Returns metric families in the Prometheus text format 0.0.4: each with its {@code # HELP} and
   * {@code # TYPE} lines, names starting with {@code bulwark_}, lines ending in {@code \n}.
   */
  String exposition();
}
