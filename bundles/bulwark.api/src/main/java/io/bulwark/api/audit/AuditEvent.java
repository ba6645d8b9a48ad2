package io.bulwark.api.audit;

import java.util.Map;
import java.util.Objects;

/**
 * Something to audit, as the caller describes it: who did it (a user name, a token id, or
 * "system"), from where (the client address, or "local"), what (a dotted action name such as {@code
 * session.login} or {@code node.power-cycle}), on what (a node, a user, a setting), how it ended,
 * and details. Details must never hold a secret: a password, token or key.
 */
public record AuditEvent(
    String actor,
    String source,
    String action,
    String target,
    AuditOutcome outcome,
    Map<String, String> details) {

  public AuditEvent {
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(outcome, "outcome");
    target = Objects.requireNonNullElse(target, "");
    details = Map.copyOf(details);
  }
}
