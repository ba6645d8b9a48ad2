package io.bulwark.api.remediation;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A remediation policy: which findings it answers, the ladder of steps it runs, and how. Policies
 * are data: stored, versioned (every change makes a new version, the old ones are kept) and
 * audited.
 *
 * @param id its id: lower case and '-', e.g. {@code xid-79}
 * @param name what people call it
 * @param description what it is for, and where its steps come from
 * @param kinds the finding kinds it answers (e.g. {@code xid}, {@code gpu-missing})
 * @param minSeverity the least severity it answers
 * @param xids for XID findings: the XID numbers it answers; empty for any (findings of other kinds
 *     are not constrained)
 * @param steps the ladder, in order; never empty
 * @param recurrenceSteps the ladder for a node whose previous run of this policy was within the
 *     flap window (e.g. straight to Broken); empty: the usual ladder again (the flap limit still
 *     sends a node that keeps coming back to a person)
 * @param mode automatic, approve destructive steps, or dry-run
 * @param enabled false to keep the policy without it starting runs
 * @param priority which policy wins when several match a finding (higher first)
 * @param version its version, from 1
 * @param updatedBy who made this version
 * @param updatedAt when
 */
public record Policy(
    String id,
    String name,
    String description,
    Set<String> kinds,
    Severity minSeverity,
    Set<Integer> xids,
    List<PolicyStep> steps,
    List<PolicyStep> recurrenceSteps,
    PolicyMode mode,
    boolean enabled,
    int priority,
    int version,
    String updatedBy,
    Instant updatedAt) {
  private static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]{0,47}");

  /**
   * @throws IllegalArgumentException if a value is not usable; the message names it
   */
  public Policy {
    if (id == null || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException(
          "a policy id is 1-48 of a-z, 0-9 and '-', starting with a letter, not '" + id + "'");
    }
    Objects.requireNonNull(minSeverity, "minSeverity");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(updatedAt, "updatedAt");
    name = name == null || name.isBlank() ? id : name.strip();
    description = description == null ? "" : description.strip();
    kinds = Set.copyOf(kinds);
    if (kinds.isEmpty()) {
      throw new IllegalArgumentException("the policy " + id + " answers no finding kind");
    }
    xids = xids == null ? Set.of() : Set.copyOf(xids);
    PolicyStep.requireNonEmpty(steps, id);
    steps = List.copyOf(steps);
    recurrenceSteps = recurrenceSteps == null ? List.of() : List.copyOf(recurrenceSteps);
    updatedBy = updatedBy == null ? "" : updatedBy;
    if (version < 1) {
      throw new IllegalArgumentException("a policy version starts at 1, not " + version);
    }
  }

  /** Returns true if the policy answers {@code finding} (kind, severity and XID). */
  public boolean matches(Finding finding) {
    if (!enabled || !kinds.contains(finding.kind())) {
      return false;
    }
    if (finding.severity().compareTo(minSeverity) < 0) {
      return false;
    }
    if (xids.isEmpty() || !FindingKind.XID.equals(finding.kind())) {
      return true;
    }
    String xid = finding.evidence().get("code");
    try {
      return xid != null && xids.contains(Integer.parseInt(xid.strip()));
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Returns this policy as the next version, changed by {@code by} at {@code at}. */
  public Policy nextVersion(Policy changed, String by, Instant at) {
    return new Policy(
        id,
        changed.name,
        changed.description,
        changed.kinds,
        changed.minSeverity,
        changed.xids,
        changed.steps,
        changed.recurrenceSteps,
        changed.mode,
        changed.enabled,
        changed.priority,
        version + 1,
        by,
        at);
  }
}
