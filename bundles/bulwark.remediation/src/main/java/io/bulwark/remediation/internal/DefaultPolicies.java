package io.bulwark.remediation.internal;

import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.remediation.Policy;
import io.bulwark.api.remediation.PolicyMode;
import io.bulwark.api.remediation.PolicyStep;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The policies a fresh appliance starts with, one per action bucket of NVIDIA's XID catalogue (the
 * "Resolution" column of the XID errors table in the GPU deployment and management documentation)
 * and per finding family. A GPU reset needs the node agent's action channel: it is optional in
 * every ladder, and where it cannot be done the power cycle or the wait that follows shows it.
 */
final class DefaultPolicies {
  /**
   * XIDs whose catalogue action is a restart of the machine (RESTART_BM: fallen off the bus,
   * channel retirement) or of the virtual machine (RESTART_VM: key rotation), as the XID detector's
   * catalogue ({@code xid-catalog.csv} of bulwark.health.dcgm) lists them.
   */
  static final Set<Integer> REBOOT_XIDS = Set.of(79, 151, 160);

  /**
   * XIDs whose catalogue action is a GPU reset (RESET_GPU) or a reset workflow (NVLink errors,
   * double-bit ECC), then a power cycle if the reset does not clear it.
   */
  static final Set<Integer> RESET_XIDS =
      Set.of(
          46, 48, 62, 64, 74, 95, 109, 110, 119, 120, 136, 140, 143, 144, 145, 146, 147, 148, 149,
          150, 155, 156, 158, 162);

  private DefaultPolicies() {}

  static List<Policy> all(PolicyMode mode, int soakSeconds, Instant at) {
    PolicyStep drain = PolicyStep.of("drain");
    PolicyStep waitDrained = PolicyStep.of("wait-drained", Map.of("timeoutMinutes", "60"));
    PolicyStep reset = PolicyStep.of("gpu-reset").asOptional();
    PolicyStep cycle = PolicyStep.of("power-cycle", Map.of("bootSeconds", "30"));
    PolicyStep resolved = PolicyStep.of("wait-resolved", Map.of("timeoutMinutes", "30"));
    PolicyStep revalidate =
        PolicyStep.of("revalidate", Map.of("soakSeconds", Integer.toString(soakSeconds)));
    PolicyStep diag = PolicyStep.of("dcgm-diag", Map.of("level", "2")).asOptional();
    PolicyStep resume = PolicyStep.of("resume");
    PolicyStep broken = PolicyStep.of("mark-broken");
    return List.of(
        policy(
            "gpu-off-the-bus",
            "GPU off the bus or not initialised",
            "XID 79/160 and 151 and GPUs missing from telemetry: the catalogue's action is a"
                + " restart of the machine. Drain, try a GPU reset, power-cycle through the BMC,"
                + " wait for the fault to clear, re-validate, return.",
            Set.of(FindingKind.XID, FindingKind.GPU_MISSING),
            Severity.WARNING,
            REBOOT_XIDS,
            List.of(drain, waitDrained, reset, cycle, resolved, revalidate, diag, resume),
            List.of(drain, waitDrained, broken),
            mode,
            20,
            at),
        policy(
            "xid-gpu-reset",
            "XID that a GPU reset clears",
            "XIDs whose catalogue action is a GPU reset or a reset workflow (DBE 48, NVLink 74,"
                + " GSP 119/120, init 143…): drain,"
                + " reset the GPU (or power-cycle where the agent takes no actions), wait for the"
                + " fault to clear, re-validate, return.",
            Set.of(FindingKind.XID),
            Severity.WARNING,
            RESET_XIDS,
            List.of(drain, waitDrained, reset, cycle, resolved, revalidate, resume),
            List.of(drain, waitDrained, broken),
            mode,
            10,
            at),
        policy(
            "row-remap-pending",
            "Row remap pending",
            "A row remap takes effect at the next GPU reset: drain, reset, check the remap took"
                + " effect (the pending flag clears), re-validate, return.",
            Set.of(FindingKind.ROW_REMAP_PENDING, FindingKind.RETIRED_PAGES_PENDING),
            Severity.WARNING,
            Set.of(),
            List.of(drain, waitDrained, reset, resolved, revalidate, resume),
            List.of(),
            mode,
            10,
            at),
        policy(
            "memory-failure",
            "Row-remap failure or uncorrectable memory errors",
            "The GPU cannot repair its memory: drain and mark the machine Broken with an RMA note"
                + " (GPU serial and UUID, the evidence).",
            Set.of(FindingKind.ROW_REMAP_FAILURE, FindingKind.ECC_DBE),
            Severity.WARNING,
            Set.of(),
            List.of(drain, waitDrained, broken),
            List.of(),
            mode,
            30,
            at),
        policy(
            "straggler",
            "Fail-slow GPU",
            "A GPU that runs slower than its peers: drain, reset, re-validate, return; if it"
                + " happens again within the flap window, drain and mark Broken.",
            Set.of(FindingKind.STRAGGLER),
            Severity.WARNING,
            Set.of(),
            List.of(drain, waitDrained, reset, revalidate, resume),
            List.of(drain, waitDrained, broken),
            mode,
            5,
            at),
        policy(
            "thermal-throttle",
            "Thermal throttling",
            "Cooling, not the GPU: drain, tell facilities, no reset; once the throttling has"
                + " cleared, re-validate and return.",
            Set.of(FindingKind.THERMAL_THROTTLE),
            Severity.WARNING,
            Set.of(),
            List.of(
                drain,
                waitDrained,
                PolicyStep.of("notify", Map.of("audience", "facilities")),
                PolicyStep.of("wait-resolved", Map.of("timeoutMinutes", "180")),
                revalidate,
                resume),
            List.of(),
            mode,
            5,
            at));
  }

  private static Policy policy(
      String id,
      String name,
      String description,
      Set<String> kinds,
      Severity min,
      Set<Integer> xids,
      List<PolicyStep> steps,
      List<PolicyStep> recurrence,
      PolicyMode mode,
      int priority,
      Instant at) {
    return new Policy(
        id,
        name,
        description,
        kinds,
        min,
        xids,
        steps,
        recurrence,
        mode,
        true,
        priority,
        1,
        "bulwark",
        at);
  }
}
