package io.bulwark.remediation.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.FindingRepository;
import io.bulwark.api.health.Severity;
import io.bulwark.api.remediation.RemediationStep;
import io.bulwark.api.remediation.StepContext;
import io.bulwark.api.remediation.StepOutcome;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.notify.api.Notices;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * The steps that read the health engine: {@code wait-resolved} (the finding that started the run
 * has cleared), {@code revalidate} (the detectors stay quiet on the node for a soak while its
 * telemetry keeps coming), and {@code notify} (the people the policy names are told, in the audit
 * log and the run).
 */
final class HealthSteps {
  private HealthSteps() {}

  /** {@code wait-resolved}: until the run's finding is resolved. */
  @Component(service = RemediationStep.class)
  public static final class WaitResolved implements RemediationStep {
    private final FindingRepository findings;

    @Activate
    public WaitResolved(@Reference FindingRepository findings) {
      this.findings = findings;
    }

    @Override
    public String name() {
      return "wait-resolved";
    }

    @Override
    public boolean destructive() {
      return false;
    }

    @Override
    public String describe(StepContext ctx, Map<String, String> parameters) {
      return "wait until the finding \""
          + ctx.finding().summary()
          + "\" clears (at most "
          + parameters.getOrDefault("timeoutMinutes", "30")
          + " min)";
    }

    @Override
    public StepOutcome perform(StepContext ctx) {
      int minutes =
          SchedulerSteps.positive(ctx.parameter("timeoutMinutes", "30"), "timeoutMinutes");
      Optional<Finding> now = findings.get(ctx.finding().id());
      if (now.isEmpty() || !now.get().isOpen()) {
        return StepOutcome.done(
            "the finding cleared"
                + now.map(f -> " at " + f.resolvedAt()).orElse(" (no longer stored)"),
            Map.of("findingResolved", now.map(f -> String.valueOf(f.resolvedAt())).orElse("")));
      }
      if (Duration.between(ctx.stepStarted(), ctx.now()).toMinutes() >= minutes) {
        return StepOutcome.failed(
            "the finding is still open after "
                + minutes
                + " min (last seen "
                + now.get().lastSeen()
                + "): the repair did not clear it",
            Map.of("lastSeen", now.get().lastSeen().toString()));
      }
      return StepOutcome.waitFor(
          Duration.ofSeconds(2),
          "the finding is still open (last seen " + now.get().lastSeen() + ")");
    }
  }

  /**
   * {@code revalidate}: the node passes when, for {@code soakSeconds}, no finding of warning
   * severity or worse is seen on it and its telemetry keeps arriving; a finding seen during the
   * soak fails it with that finding as the evidence. A node whose telemetry does not arrive is not
   * passed: the step waits, and fails after the soak plus {@code silenceMinutes}.
   */
  @Component(service = RemediationStep.class)
  public static final class Revalidate implements RemediationStep {
    private final FindingRepository findings;
    private final TelemetryQuery telemetry;

    /**
     * Reads the stored findings, not the {@code HealthService}: the health engine binds every
     * {@code FindingListener}, remediation's engine among them, which binds this step; a reference
     * back to the health engine would close that circle.
     */
    @Activate
    public Revalidate(@Reference FindingRepository findings, @Reference TelemetryQuery telemetry) {
      this.findings = findings;
      this.telemetry = telemetry;
    }

    @Override
    public String name() {
      return "revalidate";
    }

    @Override
    public boolean destructive() {
      return false;
    }

    @Override
    public String describe(StepContext ctx, Map<String, String> parameters) {
      return "re-validate "
          + ctx.node()
          + ": every detector stays quiet on it for "
          + parameters.getOrDefault("soakSeconds", "300")
          + " s while its telemetry keeps coming";
    }

    @Override
    public StepOutcome perform(StepContext ctx) {
      int soak = nonNegative(ctx.parameter("soakSeconds", "300"), "soakSeconds");
      int silence =
          SchedulerSteps.positive(ctx.parameter("silenceMinutes", "10"), "silenceMinutes");
      String started = ctx.memo().get("soakFrom");
      if (started == null) {
        ctx.remember("soakFrom", ctx.now().toString());
        return StepOutcome.waitFor(Duration.ofSeconds(Math.min(soak, 2)), "soak started");
      }
      Instant from = Instant.parse(started);
      String checked = ctx.memo().get("checkedAt");
      if (checked != null
          && Duration.between(Instant.parse(checked), ctx.now()).getSeconds() > 30) {
        // Nobody watched the node in between (the appliance was down): the soak starts again.
        ctx.remember("soakFrom", ctx.now().toString());
        ctx.remember("checkedAt", ctx.now().toString());
        return StepOutcome.waitFor(
            Duration.ofSeconds(2),
            "soak started again: the node was not watched from " + checked + " to " + ctx.now());
      }
      ctx.remember("checkedAt", ctx.now().toString());
      List<Finding> seen =
          findings.find(FindingQuery.open().withNode(ctx.node())).stream()
              .filter(f -> f.severity().compareTo(Severity.WARNING) >= 0)
              .filter(f -> !f.lastSeen().isBefore(from))
              .toList();
      if (!seen.isEmpty()) {
        Finding f = seen.get(0);
        return StepOutcome.failed(
            "re-validation failed: "
                + f.kind()
                + " seen on "
                + ctx.node()
                + " during the soak: "
                + f.summary(),
            Map.of("revalidationFinding", f.id(), "revalidationSummary", f.summary()));
      }
      OptionalLong last = telemetry.lastScrapeMillis(ctx.node());
      Duration elapsed = Duration.between(from, ctx.now());
      boolean fresh = last.isPresent() && last.getAsLong() >= from.toEpochMilli();
      if (elapsed.getSeconds() >= soak && fresh) {
        return StepOutcome.done(
            "quiet for "
                + elapsed.getSeconds()
                + " s with telemetry arriving (last scrape "
                + Instant.ofEpochMilli(last.getAsLong())
                + ")",
            Map.of(
                "revalidated",
                ctx.now().toString(),
                "soakSeconds",
                Long.toString(elapsed.getSeconds())));
      }
      if (!fresh && elapsed.toMinutes() >= silence + soak / 60) {
        return StepOutcome.failed(
            "no telemetry from "
                + ctx.node()
                + " since the soak began at "
                + from
                + ": it cannot be shown healthy; check its exporter or agent");
      }
      long left = Math.max(1, soak - elapsed.getSeconds());
      return StepOutcome.waitFor(
          Duration.ofSeconds(Math.min(left, 5)),
          fresh
              ? "soaking: quiet so far, " + left + " s to go"
              : "soaking: waiting for telemetry from "
                  + ctx.node()
                  + " (nothing since "
                  + from
                  + ")");
    }

    private static int nonNegative(String value, String name) {
      try {
        int n = Integer.parseInt(value.strip());
        if (n < 0) {
          throw new NumberFormatException();
        }
        return n;
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "the parameter " + name + " must be a whole number of 0 or more, not '" + value + "'");
      }
    }
  }

  /**
   * {@code notify}: tells the audience the policy names ({@code audience}, default operators) that
   * the node needs them, through the alert channels (every channel named so, and those whose route
   * carries the finding), and records it in the audit log and the log. Without a notification core
   * running, or with no channel taking it, the audit log and the log are all there is, and the
   * step's detail says so.
   */
  @Component(service = RemediationStep.class)
  public static final class Notify implements RemediationStep {
    private static final System.Logger LOG = System.getLogger(Notify.class.getName());
    private final AuditLog audit;

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC)
    private volatile Notices notices;

    @Activate
    public Notify(@Reference AuditLog audit) {
      this.audit = audit;
    }

    Notify(AuditLog audit, Notices notices) {
      this.audit = audit;
      this.notices = notices;
    }

    @Override
    public String name() {
      return "notify";
    }

    @Override
    public boolean destructive() {
      return false;
    }

    @Override
    public String describe(StepContext ctx, Map<String, String> parameters) {
      return "tell " + parameters.getOrDefault("audience", "operators") + ": " + message(ctx);
    }

    @Override
    public StepOutcome perform(StepContext ctx) {
      String audience = ctx.parameter("audience", "operators");
      if (ctx.memo().containsKey("notified")) {
        return StepOutcome.done(audience + " were told at " + ctx.memo().get("notified"));
      }
      String text = message(ctx);
      Notices through = notices;
      String how;
      List<String> channels = List.of();
      if (through == null) {
        how = "no notification service runs, so it is in the audit log and the log only";
      } else {
        try {
          channels =
              through.tell(ctx.runId() + ":notify:" + audience, audience, ctx.finding(), text);
        } catch (RuntimeException e) {
          return StepOutcome.waitFor(
              Duration.ofSeconds(30),
              "the notice for "
                  + audience
                  + " could not be queued ("
                  + e.getMessage()
                  + "); trying again in 30 s");
        }
        how =
            channels.isEmpty()
                ? "no alert channel is named '"
                    + audience
                    + "' or carries this finding, so it is"
                    + " in the audit log and the log only (add one on the Alerts page)"
                : "sent through " + String.join(", ", channels);
      }
      audit.append(
          new AuditEvent(
              RemediationEngine.BULWARK,
              "appliance",
              "remediation.notify",
              ctx.hostname(),
              AuditOutcome.SUCCESS,
              Map.of(
                  "audience",
                  audience,
                  "message",
                  text,
                  "run",
                  ctx.runId(),
                  "channels",
                  String.join(",", channels))));
      ctx.remember("notified", ctx.now().toString());
      LOG.log(System.Logger.Level.WARNING, "For {0}: {1} ({2})", audience, text, how);
      return StepOutcome.done(
          "told " + audience + ": " + text + "; " + how,
          Map.of("notified", audience, "channels", String.join(",", channels)));
    }

    private static String message(StepContext ctx) {
      return ctx.hostname()
          + (ctx.drained() ? " is drained because of " : " needs attention because of ")
          + ctx.finding().kind()
          + ": "
          + ctx.finding().summary()
          + " (run "
          + ctx.runId()
          + ")";
    }
  }
}
