package io.bulwark.agents.internal;

import io.bulwark.api.agent.ActionRequest;
import io.bulwark.api.agent.ActionResult;
import io.bulwark.api.agent.AgentAction;
import io.bulwark.api.agent.AgentActions;
import io.bulwark.api.agent.AgentChannelException;
import io.bulwark.api.remediation.RemediationStep;
import io.bulwark.api.remediation.StepContext;
import io.bulwark.api.remediation.StepOutcome;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The remediation steps taken through the node agent: {@code gpu-reset} and {@code dcgm-diag}. Both
 * act only on a drained node, on the finding's GPU. The request id is recorded in the run before
 * the agent is asked, so that after an appliance restart the step asks where that action stands
 * instead of starting another; an agent that forgot it (it restarted) is asked once more under a
 * new id. A node without an enrolled agent, or whose agent lacks the tool, skips an optional step
 * and fails a required one; DCGM diagnostics are skipped wherever the agent reports no DCGM.
 */
final class AgentSteps {
  static final Duration POLL = Duration.ofSeconds(3);

  private AgentSteps() {}

  /** {@code gpu-reset}: {@code nvidia-smi --gpu-reset -i N} on the node, through its agent. */
  @Component(service = RemediationStep.class)
  public static final class GpuReset implements RemediationStep {
    private final AgentActions agents;

    @Activate
    public GpuReset(@Reference AgentActions agents) {
      this.agents = agents;
    }

    @Override
    public String name() {
      return "gpu-reset";
    }

    @Override
    public boolean destructive() {
      return true;
    }

    @Override
    public String describe(StepContext ctx, Map<String, String> parameters) {
      int gpu = ctx.finding().gpu();
      return "reset GPU "
          + (gpu < 0 ? "?" : gpu)
          + " of "
          + ctx.hostname()
          + " through its node agent (nvidia-smi --gpu-reset)"
          + (agents.agent(ctx.hostname()).filter(a -> a.usable(ctx.now())).isPresent()
              ? ""
              : "; the node has no enrolled agent, so the step would be "
                  + (ctx.optional() ? "skipped" : "the run's failure"));
    }

    @Override
    public StepOutcome perform(StepContext ctx) {
      return act(agents, ctx, AgentAction.GPU_RESET, 0);
    }
  }

  /** {@code dcgm-diag}: {@code dcgmi diag -r LEVEL -i N}, where the node's agent reports DCGM. */
  @Component(service = RemediationStep.class)
  public static final class DcgmDiag implements RemediationStep {
    private final AgentActions agents;

    @Activate
    public DcgmDiag(@Reference AgentActions agents) {
      this.agents = agents;
    }

    @Override
    public String name() {
      return "dcgm-diag";
    }

    @Override
    public boolean destructive() {
      return false;
    }

    @Override
    public String describe(StepContext ctx, Map<String, String> parameters) {
      int gpu = ctx.finding().gpu();
      return "run DCGM diagnostics level "
          + parameters.getOrDefault("level", "2")
          + " on GPU "
          + (gpu < 0 ? "?" : gpu)
          + " of "
          + ctx.hostname()
          + " (dcgmi diag), where its agent reports DCGM";
    }

    @Override
    public StepOutcome perform(StepContext ctx) {
      int level;
      try {
        level = Integer.parseInt(ctx.parameter("level", "2"));
      } catch (NumberFormatException e) {
        level = -1;
      }
      if (level < 1 || level > 4) {
        return StepOutcome.failed(
            "the step's 'level' must be 1 to 4, not " + ctx.parameter("level", ""));
      }
      return act(agents, ctx, AgentAction.DCGM_DIAG, level);
    }
  }

  static StepOutcome act(AgentActions agents, StepContext ctx, AgentAction action, int level) {
    String node = ctx.hostname();
    int gpu = ctx.finding().gpu();
    if (!ctx.drained()) {
      return StepOutcome.failed(
          action.wire()
              + " refused: "
              + node
              + " is not known drained (no earlier wait-drained"
              + " ended done); a GPU action would disturb its work");
    }
    if (gpu < 0) {
      return notApplicable(ctx, "the finding names no GPU of " + node);
    }
    String id = ctx.memo().get("requestId");
    try {
      if (id == null) {
        Set<AgentAction> can = agents.capabilities(node);
        if (!can.contains(action)) {
          String why =
              "the node agent of "
                  + node
                  + " reports no "
                  + (action == AgentAction.DCGM_DIAG ? "DCGM (dcgmi)" : "nvidia-smi");
          return action == AgentAction.DCGM_DIAG
              ? StepOutcome.skipped(why)
              : notApplicable(ctx, why);
        }
        return start(agents, ctx, action, gpu, level);
      }
      ActionResult r;
      try {
        r = agents.status(node, id);
      } catch (AgentChannelException e) {
        if (e.kind() == AgentChannelException.Kind.REFUSED && ctx.memo().get("restarted") == null) {
          ctx.remember("restarted", id);
          return start(agents, ctx, action, gpu, level);
        }
        throw e;
      }
      return outcome(ctx, r);
    } catch (AgentChannelException e) {
      if (e.kind() == AgentChannelException.Kind.NOT_ENROLLED) {
        return notApplicable(ctx, e.getMessage());
      }
      if (e.kind() == AgentChannelException.Kind.UNREACHABLE
          && Duration.between(ctx.stepStarted(), ctx.now()).compareTo(Duration.ofMinutes(10)) < 0) {
        return StepOutcome.waitFor(Duration.ofSeconds(15), e.getMessage() + "; trying again");
      }
      return StepOutcome.failed(e.getMessage());
    }
  }

  private static StepOutcome start(
      AgentActions agents, StepContext ctx, AgentAction action, int gpu, int level)
      throws AgentChannelException {
    String id =
        ctx.runId()
            + "."
            + action.wire()
            + ".g"
            + gpu
            + ".a"
            + ctx.attempt()
            + (ctx.memo().containsKey("restarted") ? ".r" : "");
    ctx.ensureActive();
    ctx.remember("requestId", id);
    ActionResult r = agents.start(ctx.hostname(), new ActionRequest(id, action, gpu, level));
    return outcome(ctx, r);
  }

  private static StepOutcome outcome(StepContext ctx, ActionResult r) {
    Map<String, String> evidence =
        Map.of(
            "agentRequest", r.requestId(),
            "agentExit", Integer.toString(r.exitCode()),
            "agentOutput",
                r.output().length() > 4000
                    ? r.output().substring(r.output().length() - 4000)
                    : r.output());
    return switch (r.state()) {
      case RUNNING ->
          StepOutcome.waitFor(
              POLL, r.action().wire() + " running on " + ctx.hostname() + ": " + r.summary());
      case SUCCEEDED -> StepOutcome.done(r.summary(), evidence);
      case FAILED ->
          StepOutcome.failed(
              r.action().wire() + " failed on " + ctx.hostname() + ": " + r.summary(), evidence);
    };
  }

  private static StepOutcome notApplicable(StepContext ctx, String why) {
    return ctx.optional()
        ? StepOutcome.skipped(why + " (optional: skipped)")
        : StepOutcome.failed(why);
  }
}
