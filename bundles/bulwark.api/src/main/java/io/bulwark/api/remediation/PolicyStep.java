package io.bulwark.api.remediation;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One rung of a policy's ladder: the step to run and its parameters.
 *
 * @param step the {@linkplain RemediationStep#name() step's name}
 * @param parameters its parameters (e.g. {@code timeoutMinutes=60}); names and values are short
 *     text
 * @param optional true if the run goes on (the step recorded as skipped) when no bundle provides
 *     the step or it does not apply to the node, e.g. a GPU reset where the node agent takes no
 *     actions
 */
public record PolicyStep(String step, Map<String, String> parameters, boolean optional) {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,39}");
  private static final Pattern PARAMETER = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]{0,39}");

  /**
   * @throws IllegalArgumentException if the step name or a parameter is not usable
   */
  public PolicyStep {
    if (step == null || !NAME.matcher(step).matches()) {
      throw new IllegalArgumentException(
          "a step name is 1-40 of a-z, 0-9 and '-', starting with a letter, not '" + step + "'");
    }
    parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
    for (Map.Entry<String, String> e : parameters.entrySet()) {
      if (!PARAMETER.matcher(e.getKey()).matches()) {
        throw new IllegalArgumentException(
            "the step " + step + " has a parameter named '" + e.getKey() + "': not a name");
      }
      if (e.getValue().length() > 500) {
        throw new IllegalArgumentException(
            "the parameter " + e.getKey() + " of the step " + step + " is over 500 characters");
      }
    }
  }

  /** Returns a required step without parameters. */
  public static PolicyStep of(String step) {
    return new PolicyStep(step, Map.of(), false);
  }

  /** Returns a required step with parameters. */
  public static PolicyStep of(String step, Map<String, String> parameters) {
    return new PolicyStep(step, parameters, false);
  }

  /** Returns this step made optional. */
  public PolicyStep asOptional() {
    return new PolicyStep(step, parameters, true);
  }

  /** Returns "drain", or "power-cycle(waitSeconds=30)", as policies are shown in words. */
  @Override
  public String toString() {
    String p = parameters.isEmpty() ? "" : new java.util.TreeMap<>(parameters).toString();
    return step
        + (p.isEmpty() ? "" : "(" + p.substring(1, p.length() - 1) + ")")
        + (optional ? "?" : "");
  }

  static void requireNonEmpty(java.util.List<PolicyStep> steps, String policy) {
    Objects.requireNonNull(steps, "steps");
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("the policy " + policy + " has no step");
    }
  }
}
