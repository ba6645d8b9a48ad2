package io.bulwark.web.internal;

import io.bulwark.api.health.HealthService;
import io.bulwark.api.security.Role;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.EventSink;
import io.bulwark.web.api.EventTopic;
import io.vertx.core.Vertx;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The {@code capacity} topic of the event stream: the capacity account, every few seconds and to
 * each client as it connects, for every role.
 */
@Component(service = EventTopic.class)
public final class CapacityTopic implements EventTopic {
  static final Duration EVERY = Duration.ofSeconds(5);

  private static final Logger LOG = System.getLogger(CapacityTopic.class.getName());

  private final Vertx vertx;
  private final HealthService health;
  private final TelemetryTargets targets;
  private final Duration every;
  private final Clock clock;
  private volatile long timer = -1;

  @Activate
  public CapacityTopic(
      @Reference Vertx vertx,
      @Reference HealthService health,
      @Reference TelemetryTargets targets) {
    this(vertx, health, targets, EVERY, Clock.systemUTC());
  }

  CapacityTopic(
      Vertx vertx, HealthService health, TelemetryTargets targets, Duration every, Clock clock) {
    this.vertx = vertx;
    this.health = health;
    this.targets = targets;
    this.every = every;
    this.clock = clock;
  }

  @Override
  public String name() {
    return "capacity";
  }

  @Override
  public Set<Role> roles() {
    return ApiRoute.ANY_ROLE;
  }

  @Override
  public void open(EventSink sink) {
    timer =
        vertx.setPeriodic(
            every.toMillis(),
            id ->
                vertx
                    .executeBlocking(this::snapshot, false)
                    .onSuccess(sink::publish)
                    .onFailure(
                        e ->
                            LOG.log(
                                Level.WARNING,
                                "Could not read the capacity account for the event stream;"
                                    + " retrying in "
                                    + every.toSeconds()
                                    + " s. Check the health bundle.",
                                e)));
  }

  @Override
  public void close() {
    vertx.cancelTimer(timer);
  }

  @Override
  public String snapshot() {
    return ApiJson.capacity(
            CapacityResource.current(health, clock),
            CapacityResource.notAnswering(targets),
            CoverageResource.gpusPartlyCovered(health.coverage()))
        .encode();
  }
}
