package io.bulwark.health.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Condition;
import io.bulwark.api.health.DetectionContext;
import io.bulwark.api.health.Detector;
import io.bulwark.api.health.FindingKind;
import io.bulwark.api.health.Severity;
import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * Findings about the appliance itself: a subsystem that is not UP (the store refusing writes, the
 * audit log near or at its quota, telemetry with nothing scraped…) becomes a finding of kind {@code
 * appliance-<subsystem>} on the node {@value #NODE}, critical when DOWN and a warning when
 * DEGRADED, with the subsystem's words as summary and action and its gauges as evidence. It
 * resolves like any finding once the subsystem is UP again, and reaches every finding listener.
 */
@Component(service = Detector.class)
public final class ApplianceDetector implements Detector {
  /** The node findings about the appliance are filed under. */
  public static final String NODE = "bulwark-appliance";

  private static final NodeId APPLIANCE = NodeId.of(NODE);

  private final Set<SubsystemCheck> checks = new CopyOnWriteArraySet<>();

  /**
   * Every subsystem's check but the health engine's own: the engine calls this detector, so it
   * cannot report its own stall through it (the System page and {@code /metrics} do), and binding
   * it would make the two components wait for each other.
   */
  @Reference(
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      target = "(!(objectClass=io.bulwark.api.health.HealthService))",
      unbind = "remove")
  void add(SubsystemCheck check) {
    checks.add(check);
  }

  void remove(SubsystemCheck check) {
    checks.remove(check);
  }

  @Override
  public String name() {
    return "appliance";
  }

  @Override
  public List<Condition> evaluate(DetectionContext context) {
    List<Condition> conditions = new ArrayList<>();
    for (SubsystemCheck check : checks) {
      SubsystemStatus s;
      try {
        s = check.status();
      } catch (RuntimeException e) {
        continue; // the web plane reports a failing check; a finding needs its words
      }
      if (s == null || s.state() == SubsystemState.UP) {
        continue;
      }
      String kind = kind(s.subsystem());
      if (kind == null) {
        continue;
      }
      Map<String, String> evidence = new LinkedHashMap<>();
      evidence.put("subsystem", s.subsystem());
      evidence.put("state", s.state().name());
      evidence.put("since", s.since().toString());
      s.measurements().forEach((k, v) -> evidence.put(k, number(v)));
      conditions.add(
          new Condition(
              kind,
              APPLIANCE,
              -1,
              s.state() == SubsystemState.DOWN ? Severity.CRITICAL : Severity.WARNING,
              "Appliance " + s.subsystem() + " " + s.state().name() + ": " + s.summary(),
              evidence,
              s.action(),
              1.0));
    }
    return conditions;
  }

  /** Returns {@code appliance-<subsystem>} as a finding kind, or null if it cannot be one. */
  static String kind(String subsystem) {
    String kind =
        StoreFindings.APPLIANCE_KIND_PREFIX
            + subsystem.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
    kind = kind.replaceAll("-+$", "");
    return FindingKind.isValid(kind) ? kind : null;
  }

  private static String number(Double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString(v.longValue()) : v.toString();
  }
}
