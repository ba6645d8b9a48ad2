package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.system.SteadyClock;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/**
 * Notes in the audit log when the wall clock steps (an NTP correction, a bad RTC set right after
 * boot): every few seconds it compares the wall clock with the appliance's {@link SteadyClock}, on
 * which sessions, lockouts, leases, rate limits and remediation timeouts are measured; a change of
 * their difference by more than {@link #STEP_MILLIS} between two checks is a step, recorded as
 * {@code system.clock-step} with its size, so that a reader of the log knows why the wall times of
 * the records around it jump. Audit records themselves keep wall time.
 */
@Component(immediate = true)
public final class ClockStepRecorder {
  static final long STEP_MILLIS = 2_000;
  static final long EVERY_MILLIS = 5_000;
  static final String ACTION = "system.clock-step";
  private static final System.Logger LOG = System.getLogger(ClockStepRecorder.class.getName());

  private final AuditLog audit;
  private final Clock wall;
  private final SteadyClock steady;
  private final ScheduledExecutorService timer;
  private long offset;

  @Activate
  public ClockStepRecorder(@Reference AuditLog audit) {
    this(audit, Clock.systemUTC(), SteadyClock.system(), true);
  }

  ClockStepRecorder(AuditLog audit, Clock wall, SteadyClock steady, boolean schedule) {
    this.audit = audit;
    this.wall = wall;
    this.steady = steady;
    this.offset = steady.offsetMillis(wall);
    if (schedule) {
      timer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "bulwark-clock-steps");
                t.setDaemon(true);
                return t;
              });
      timer.scheduleWithFixedDelay(
          this::checkQuietly, EVERY_MILLIS, EVERY_MILLIS, TimeUnit.MILLISECONDS);
    } else {
      timer = null;
    }
  }

  @Deactivate
  void stop() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }

  private void checkQuietly() {
    try {
      check();
    } catch (RuntimeException e) {
      LOG.log(
          System.Logger.Level.WARNING, "Could not record a step of the clock: " + e.getMessage());
    }
  }

  /** Compares the clocks once; returns the step found in milliseconds, or 0. */
  synchronized long check() {
    // Compared with the last check only: slow drift (the time daemon slewing) is not a step.
    long now = steady.offsetMillis(wall);
    long step = now - offset;
    offset = now;
    if (Math.abs(step) <= STEP_MILLIS) {
      return 0;
    }
    Instant at = wall.instant();
    String words = (step > 0 ? "forward by " : "back by ") + Math.abs(step) / 1000.0 + " s";
    LOG.log(
        System.Logger.Level.WARNING,
        "The wall clock stepped "
            + words
            + " (now "
            + at
            + "): audit records keep wall time; sessions, lockouts, leases, rate limits and"
            + " remediation timeouts are measured on the steady clock and are not affected."
            + " Check the time source (chronyc tracking)");
    audit.append(
        new AuditEvent(
            "bulwark",
            "local",
            ACTION,
            "clock",
            AuditOutcome.SUCCESS,
            Map.of(
                "stepMillis",
                Long.toString(step),
                "direction",
                step > 0 ? "forward" : "back",
                "wallNow",
                at.toString(),
                "steadyNow",
                steady.instant().toString())));
    return step;
  }
}
