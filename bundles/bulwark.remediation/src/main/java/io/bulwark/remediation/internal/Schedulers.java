package io.bulwark.remediation.internal;

import io.bulwark.api.scheduler.SchedulerConnector;
import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * The scheduler connectors installed, and which of them runs a node. A node is looked up in every
 * connector (each answers from its scheduler, not from a cache); the whole-fleet view the pool
 * guardrail needs is cached for {@link #FLEET_VIEW_MILLIS} ms.
 */
@Component(service = Schedulers.class)
public final class Schedulers {
  static final long FLEET_VIEW_MILLIS = 5_000;

  /** How long after start connectors that are configured may still be binding. */
  static final long STARTING_MILLIS = 60_000;

  private final LongSupplier nanoTime;
  private final long createdNanos;
  private final List<SchedulerConnector> connectors = new CopyOnWriteArrayList<>();
  private final Map<SchedulerConnector, View> views = new ConcurrentHashMap<>();

  public Schedulers() {
    this(System::nanoTime);
  }

  /** For tests: {@code nanoTime} is the monotonic clock the start minute is measured on. */
  Schedulers(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    this.createdNanos = nanoTime.getAsLong();
  }

  /** A node and the connector whose scheduler runs it. */
  record Located(SchedulerConnector connector, SchedulerNode node) {}

  private record View(long atMillis, List<SchedulerNode> nodes) {}

  @Reference(
      service = SchedulerConnector.class,
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC)
  void bind(SchedulerConnector c) {
    connectors.add(c);
  }

  void unbind(SchedulerConnector c) {
    connectors.remove(c);
    views.remove(c);
  }

  /** Returns true in the first minute after start, while configured connectors may still bind. */
  boolean starting() {
    return nanoTime.getAsLong() - createdNanos < STARTING_MILLIS * 1_000_000L;
  }

  /** Returns the connectors installed now. */
  List<SchedulerConnector> connectors() {
    return List.copyOf(connectors);
  }

  /**
   * Returns the scheduler that runs {@code hostname}, if any does.
   *
   * @throws SchedulerException if a scheduler could not be asked (and none that was asked knows the
   *     node): whether the node is in it is then not known
   */
  Optional<Located> locate(String hostname) throws SchedulerException {
    SchedulerException failed = null;
    for (SchedulerConnector c : connectors) {
      try {
        Optional<SchedulerNode> n = c.node(hostname);
        if (n.isPresent()) {
          return Optional.of(new Located(c, n.get()));
        }
      } catch (SchedulerException e) {
        failed = e;
      }
    }
    if (failed != null) {
      throw failed;
    }
    return Optional.empty();
  }

  /** Returns the connector named {@code name}, if it is installed. */
  Optional<SchedulerConnector> named(String name) {
    return connectors.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * Returns every node of the scheduler, from a view at most {@link #FLEET_VIEW_MILLIS} ms old.
   *
   * @throws SchedulerException if it cannot be asked
   */
  List<SchedulerNode> nodes(SchedulerConnector c, long nowMillis) throws SchedulerException {
    View v = views.get(c);
    // A clock stepped back (NTP, a bad RTC) makes the view stale too, not fresh for an hour.
    if (v == null || nowMillis - v.atMillis > FLEET_VIEW_MILLIS || nowMillis < v.atMillis) {
      v = new View(nowMillis, new ArrayList<>(c.nodes()));
      views.put(c, v);
    }
    return v.nodes;
  }

  /** Forgets the cached views (after a drain or resume changed them). */
  void invalidate() {
    views.clear();
  }
}
