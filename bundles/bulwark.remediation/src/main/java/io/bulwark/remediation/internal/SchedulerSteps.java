package io.bulwark.remediation.internal;

import io.bulwark.api.remediation.RemediationStep;
import io.bulwark.api.remediation.StepContext;
import io.bulwark.api.remediation.StepOutcome;
import io.bulwark.api.scheduler.SchedulerConnector;
import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The scheduler steps: {@code drain}, {@code wait-drained} and {@code resume}, through whichever
 * installed connector runs the node. A node that no scheduler knows (a site without one, a node
 * outside every partition) is skipped with that said; a scheduler that cannot be asked or refuses
 * fails the step with its words. Nothing is reported drained that the scheduler does not call
 * drained.
 */
final class SchedulerSteps {
  private SchedulerSteps() {}

  /** Where a step finds the node's scheduler: the one recorded in its memo, or a lookup. */
  static Optional<Schedulers.Located> locate(Schedulers schedulers, StepContext ctx)
      throws SchedulerException {
    String recorded = ctx.memo().get("scheduler");
    if (recorded != null) {
      Optional<SchedulerConnector> c = schedulers.named(recorded);
      if (c.isEmpty()) {
        throw new SchedulerException(
            "the scheduler connector "
                + recorded
                + " that drained "
                + ctx.hostname()
                + " is no longer installed: reinstall it, or cancel the run and resume the node by"
                + " hand");
      }
      Optional<SchedulerNode> n = c.get().node(ctx.hostname());
      if (n.isEmpty()) {
        throw new SchedulerException(
            recorded + " no longer knows the node " + ctx.hostname() + ": was it removed?");
      }
      return Optional.of(new Schedulers.Located(c.get(), n.get()));
    }
    return schedulers.locate(ctx.hostname());
  }

  /**
   * What a step does about a node no scheduler knows: with no connector configured at all, there is
   * no scheduler to tell (skipped, recorded as such); in the first minute after start, the
   * connectors may still be binding (wait); with connectors that do not know the node, its host
   * name is probably not its scheduler's name: that is an error, since work may run on it.
   */
  static StepOutcome unknown(Schedulers schedulers, StepContext ctx, String what) {
    if (schedulers.connectors().isEmpty()) {
      if (schedulers.starting()) {
        return StepOutcome.waitFor(
            Duration.ofSeconds(2), "waiting for the scheduler connectors to start");
      }
      return new StepOutcome(
          StepOutcome.Status.SKIPPED,
          none(schedulers, ctx) + ": " + what,
          Duration.ZERO,
          Map.of("noScheduler", "true"));
    }
    return StepOutcome.failed(
        none(schedulers, ctx)
            + ": work may run on it that Bulwark cannot see; make the machine's host name the"
            + " scheduler's node name");
  }

  private static String none(Schedulers schedulers, StepContext ctx) {
    return schedulers.connectors().isEmpty()
        ? "no scheduler connector is configured, so " + ctx.hostname() + " has no scheduler to tell"
        : "no configured scheduler ("
            + String.join(
                ", ", schedulers.connectors().stream().map(SchedulerConnector::name).toList())
            + ") knows the node "
            + ctx.hostname();
  }

  /** {@code drain}: no new work on the node, with the finding as the reason. */
  @Component(service = RemediationStep.class)
  public static final class Drain implements RemediationStep {
    private final Schedulers schedulers;

    @Activate
    public Drain(@Reference Schedulers schedulers) {
      this.schedulers = schedulers;
    }

    @Override
    public String name() {
      return "drain";
    }

    @Override
    public boolean destructive() {
      return true;
    }

    @Override
    public boolean disturbsWork() {
      return false; // stops new work reaching the node; the work on it runs on
    }

    @Override
    public String describe(StepContext ctx, Map<String, String> parameters) {
      return "drain "
          + ctx.hostname()
          + " in its scheduler with the reason \""
          + ctx.reason()
          + "\"";
    }

    @Override
    public StepOutcome perform(StepContext ctx) throws SchedulerException {
      Optional<Schedulers.Located> at = locate(schedulers, ctx);
      if (at.isEmpty()) {
        return unknown(schedulers, ctx, "nothing to drain");
      }
      SchedulerConnector c = at.get().connector();
      ctx.remember("scheduler", c.name());
      ctx.ensureActive();
      c.drain(ctx.hostname(), ctx.reason());
      schedulers.invalidate();
      return StepOutcome.done(
          "drain issued to " + c.name() + " for " + ctx.hostname(),
          Map.of(
              "scheduler",
              c.name(),
              "drainReason",
              ctx.reason(),
              "drainIssued",
              ctx.now().toString()));
    }
  }

  /** {@code wait-drained}: until the node runs no work, evicting what the scheduler allows. */
  @Component(service = RemediationStep.class)
  public static final class WaitDrained implements RemediationStep {
    private final Schedulers schedulers;

    @Activate
    public WaitDrained(@Reference Schedulers schedulers) {
      this.schedulers = schedulers;
    }

    @Override
    public String name() {
      return "wait-drained";
    }

    @Override
    public boolean destructive() {
      return false;
    }

    @Override
    public String describe(StepContext ctx, Map<String, String> parameters) {
      return "wait until the scheduler reports "
          + ctx.hostname()
          + " drained (running jobs end; at most "
          + parameters.getOrDefault("timeoutMinutes", "60")
          + " min, then "
          + parameters.getOrDefault("onTimeout", "fail")
          + ")";
    }

    @Override
    public StepOutcome perform(StepContext ctx) throws SchedulerException {
      Optional<Schedulers.Located> at = locate(schedulers, ctx);
      if (at.isEmpty()) {
        return unknown(schedulers, ctx, "nothing to wait for");
      }
      SchedulerConnector c = at.get().connector();
      SchedulerNode n = at.get().node();
      ctx.remember("scheduler", c.name());
      switch (n.state()) {
        case DRAINED:
          return StepOutcome.done(
              c.name() + " reports " + ctx.hostname() + " drained (" + n.schedulerState() + ")",
              Map.of("drained", ctx.now().toString(), "schedulerState", n.schedulerState()));
        case DOWN:
          if (!n.jobs().isEmpty()) {
            break; // down to its scheduler, yet work is listed on it: wait for that work
          }
          return StepOutcome.done(
              c.name()
                  + " reports "
                  + ctx.hostname()
                  + " down ("
                  + n.schedulerState()
                  + "): it runs no work it can be asked about",
              Map.of("drained", ctx.now().toString(), "schedulerState", n.schedulerState()));
        case AVAILABLE:
          return StepOutcome.failed(
              c.name()
                  + " reports "
                  + ctx.hostname()
                  + " taking work again ("
                  + n.schedulerState()
                  + "): someone resumed it while it was draining; the run stops so that nothing"
                  + " is done to a node at work");
        default:
          break;
      }
      int minutes = positive(ctx.parameter("timeoutMinutes", "60"), "timeoutMinutes");
      Duration waited = Duration.between(ctx.stepStarted(), ctx.now());
      ctx.ensureActive();
      boolean allLeft = c.evict(ctx.hostname());
      if (allLeft) {
        return StepOutcome.waitFor(
            Duration.ofSeconds(1), "the last work is leaving " + ctx.hostname());
      }
      if (waited.compareTo(Duration.ofMinutes(minutes)) > 0) {
        String left = String.join(", ", n.jobs());
        if ("proceed".equals(ctx.parameter("onTimeout", "fail"))) {
          return StepOutcome.done(
              "drain timeout of "
                  + minutes
                  + " min passed with work still on "
                  + ctx.hostname()
                  + " ("
                  + left
                  + "); the policy says to go on",
              Map.of("jobsLeft", left));
        }
        return StepOutcome.failed(
            ctx.hostname()
                + " still runs "
                + left
                + " after "
                + minutes
                + " min of draining: end or move that work, then start a new run",
            Map.of("jobsLeft", left));
      }
      return StepOutcome.waitFor(
          Duration.ofSeconds(2),
          c.name()
              + " reports "
              + ctx.hostname()
              + " "
              + n.schedulerState()
              + ", "
              + n.jobs().size()
              + " job(s) still running: "
              + String.join(", ", n.jobs()));
    }
  }

  /** {@code resume}: the node takes work again. */
  @Component(service = RemediationStep.class)
  public static final class Resume implements RemediationStep {
    private final Schedulers schedulers;

    @Activate
    public Resume(@Reference Schedulers schedulers) {
      this.schedulers = schedulers;
    }

    @Override
    public String name() {
      return "resume";
    }

    @Override
    public boolean destructive() {
      return false;
    }

    @Override
    public String describe(StepContext ctx, Map<String, String> parameters) {
      return "return " + ctx.hostname() + " to its scheduler (resume)";
    }

    @Override
    public StepOutcome perform(StepContext ctx) throws SchedulerException {
      Optional<Schedulers.Located> at = locate(schedulers, ctx);
      if (at.isEmpty()) {
        return unknown(schedulers, ctx, "nothing to resume");
      }
      SchedulerConnector c = at.get().connector();
      SchedulerNode n = at.get().node();
      if (n.state() != SchedulerState.AVAILABLE
          && !n.reason().isEmpty()
          && !n.reason().contains(ctx.runId())
          && !ctx.memo().containsKey("resumeIssued")) {
        return StepOutcome.failed(
            c.name()
                + " shows "
                + ctx.hostname()
                + " drained for another reason (\""
                + n.reason()
                + "\"): someone took it out of service after this run; it is left as it is");
      }
      ctx.remember("resumeIssued", ctx.now().toString());
      ctx.ensureActive();
      c.resume(ctx.hostname(), ctx.reason());
      schedulers.invalidate();
      Optional<SchedulerNode> after = c.node(ctx.hostname());
      if (after.isPresent()
          && after.get().state() == SchedulerState.DOWN
          && Duration.between(ctx.stepStarted(), ctx.now()).getSeconds() < 30) {
        // Slurm shows a resumed node NOT_RESPONDING for a moment, until its slurmd answers again.
        return StepOutcome.waitFor(
            Duration.ofSeconds(1),
            "resume issued; "
                + c.name()
                + " reports "
                + ctx.hostname()
                + " "
                + after.get().schedulerState()
                + " for now");
      }
      if (after.isPresent()
          && after.get().state() != SchedulerState.AVAILABLE
          && after.get().state() != SchedulerState.DOWN) {
        if (Duration.between(ctx.stepStarted(), ctx.now()).toMinutes() >= 5) {
          return StepOutcome.failed(
              c.name()
                  + " still reports "
                  + ctx.hostname()
                  + " "
                  + after.get().schedulerState()
                  + " five minutes after the resume: resume it by hand and look at why");
        }
        return StepOutcome.waitFor(
            Duration.ofSeconds(2),
            "resume issued; "
                + c.name()
                + " reports "
                + ctx.hostname()
                + " "
                + after.get().schedulerState());
      }
      return StepOutcome.done(
          c.name()
              + " takes work on "
              + ctx.hostname()
              + " again ("
              + after.map(SchedulerNode::schedulerState).orElse("?")
              + ")",
          Map.of("resumed", ctx.now().toString()));
    }
  }

  static int positive(String value, String name) {
    try {
      int n = Integer.parseInt(value.strip());
      if (n < 1) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "the parameter " + name + " must be a whole number of 1 or more, not '" + value + "'");
    }
  }
}
