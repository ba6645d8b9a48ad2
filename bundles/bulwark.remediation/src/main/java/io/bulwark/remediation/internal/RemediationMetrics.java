package io.bulwark.remediation.internal;

import io.bulwark.api.remediation.Guardrails;
import io.bulwark.web.api.MetricsSource;
import java.util.Map;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** Remediation on {@code /metrics}: runs by state, nodes isolated and the limit, the switches. */
@Component(service = MetricsSource.class)
public final class RemediationMetrics implements MetricsSource {
  private final RemediationEngine engine;

  @Activate
  public RemediationMetrics(@Reference RemediationEngine engine) {
    this.engine = engine;
  }

  @Override
  public String exposition() {
    Map<String, Integer> byState = RunCounts.of(engine.runs(Integer.MAX_VALUE));
    Guardrails g = engine.guardrails();
    StringBuilder b = new StringBuilder();
    b.append(
        "# HELP bulwark_remediation_runs Remediation runs kept, by state (dry runs that showed"
            + " their plan as dry-run, not succeeded).\n");
    b.append("# TYPE bulwark_remediation_runs gauge\n");
    byState.forEach(
        (s, n) ->
            b.append("bulwark_remediation_runs{state=\"")
                .append(s)
                .append("\"} ")
                .append(n)
                .append('\n'));
    b.append("# HELP bulwark_remediation_isolated_nodes Nodes isolated by remediation runs now.\n");
    b.append("# TYPE bulwark_remediation_isolated_nodes gauge\n");
    b.append("bulwark_remediation_isolated_nodes ").append(engine.isolatedNow()).append('\n');
    b.append(
        "# HELP bulwark_remediation_isolation_limit Nodes the guardrails let runs isolate at once.\n");
    b.append("# TYPE bulwark_remediation_isolation_limit gauge\n");
    b.append("bulwark_remediation_isolation_limit ").append(engine.isolationLimit()).append('\n');
    b.append(
        "# HELP bulwark_remediation_kill_switch 1 while the kill switch stops all automation.\n");
    b.append("# TYPE bulwark_remediation_kill_switch gauge\n");
    b.append("bulwark_remediation_kill_switch ").append(g.killSwitch() ? 1 : 0).append('\n');
    b.append("# HELP bulwark_remediation_breaker_open 1 while the circuit breaker is open.\n");
    b.append("# TYPE bulwark_remediation_breaker_open gauge\n");
    b.append("bulwark_remediation_breaker_open ").append(g.breakerOpen() ? 1 : 0).append('\n');
    return b.toString();
  }
}
