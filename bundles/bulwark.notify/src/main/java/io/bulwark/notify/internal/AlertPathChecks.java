package io.bulwark.notify.internal;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.ComplianceCheck;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The compliance checks that the SA and ISSO are told, at once, when the appliance runs short: the
 * audit log nearing its quota, the audit log failing, low disk and other resources. An unhealthy
 * subsystem opens the finding {@code appliance-<subsystem>} (WARNING when DEGRADED, CRITICAL when
 * DOWN); each check looks for an enabled channel whose route carries that finding and that has
 * delivered (a test message counts), and reads the subsystem's own threshold where the STIG names
 * one.
 */
final class AlertPathChecks {
  private AlertPathChecks() {}

  /** The appliance's own node, on which {@code appliance-*} findings are raised. */
  static final NodeId APPLIANCE = NodeId.of("bulwark-appliance");

  /** What one check follows: the subsystems, the severity their finding has, what it proves. */
  record Path(String id, String title, List<String> subsystems, Severity severity, String what) {}

  static final Path AUDIT_STORAGE =
      new Path(
          "audit-storage-threshold",
          "The SA and ISSO are alerted when the audit log reaches 75% of its storage",
          List.of("audit"),
          Severity.WARNING,
          "the audit log at its warning share of the quota");
  static final Path AUDIT_FAILURE =
      new Path(
          "audit-failure-alert",
          "The SA and ISSO are alerted at once when the audit log fails",
          List.of("audit"),
          Severity.CRITICAL,
          "the audit log failing");
  static final Path LOW_RESOURCES =
      new Path(
          "low-resource-alert",
          "Low disk, audit quota, open files and series budget are alerted to the SA",
          List.of("store", "audit", "telemetry", "connections"),
          Severity.WARNING,
          "a subsystem running short");

  /** Decides one path against the channels and subsystems now. */
  static CheckResult run(
      Path path, Notifier notifier, List<SubsystemCheck> subsystems, Instant now) {
    Map<String, String> evidence = new LinkedHashMap<>();
    List<String> reaching = new ArrayList<>();
    List<String> notYet = new ArrayList<>();
    Map<String, SubsystemStatus> statuses = new LinkedHashMap<>();
    for (SubsystemCheck c : subsystems) {
      SubsystemStatus st = c.status();
      statuses.putIfAbsent(st.subsystem(), st);
    }
    for (String subsystem : path.subsystems()) {
      Optional<SubsystemStatus> s = Optional.ofNullable(statuses.get(subsystem));
      evidence.put(
          "subsystem " + subsystem,
          s.map(x -> x.state() + ": " + x.summary()).orElse("not running"));
      if (subsystem.equals("audit") && path != AUDIT_FAILURE) {
        s.map(x -> x.measurements().get("bulwark_audit_warn_ratio"))
            .ifPresent(r -> evidence.put("auditWarnPercent", Long.toString(Math.round(100 * r))));
        s.map(x -> x.measurements().get("bulwark_audit_used_ratio"))
            .ifPresent(r -> evidence.put("auditUsedPercent", String.format("%.1f", 100 * r)));
      }
    }
    Finding probe = probe(path);
    for (Notifier.View v : notifier.views()) {
      ChannelDefinition c = v.channel();
      if (!c.enabled() || !c.route().matches(probe, Map.of())) {
        continue;
      }
      String who = c.name() + " (" + c.type() + ")";
      if (v.delivering() && v.status().lastSuccess() != null) {
        reaching.add(who + ", last delivered " + v.status().lastSuccess());
      } else {
        notYet.add(
            who
                + (v.delivering()
                    ? ", has delivered nothing yet"
                    : ", not delivering: " + v.problem())
                + (v.status().lastError().isEmpty()
                    ? ""
                    : ", last error: " + v.status().lastError()));
      }
    }
    evidence.put("channelsThatDeliver", reaching.isEmpty() ? "none" : String.join("; ", reaching));
    if (!notYet.isEmpty()) {
      evidence.put("channelsNotYetDelivering", String.join("; ", notYet));
    }
    List<String> faults = new ArrayList<>();
    String warn = evidence.get("auditWarnPercent");
    if (warn != null && Long.parseLong(warn) > 75) {
      faults.add("the audit log warns at " + warn + "% of its quota, later than 75%");
    }
    if (reaching.isEmpty()) {
      faults.add(
          "no enabled alert channel that carries "
              + path.severity().name().toLowerCase()
              + " appliance findings has delivered: add one on the Alerts page (syslog, Alertmanager,"
              + " webhook or mail to the SA and ISSO) and send a test");
    }
    if (!faults.isEmpty()) {
      return CheckResult.open(path.id(), String.join("; ", faults), evidence, now);
    }
    return CheckResult.met(
        path.id(),
        "an alert channel that has delivered carries the finding raised for " + path.what(),
        evidence,
        now);
  }

  /** A finding like the one the path raises, to ask each channel's route whether it goes out. */
  private static Finding probe(Path path) {
    Instant t = Instant.EPOCH;
    return new Finding(
        "compliance-probe",
        "appliance-" + path.subsystems().get(0),
        APPLIANCE,
        -1,
        path.severity(),
        FindingState.OPEN,
        t,
        t,
        null,
        "compliance probe",
        Map.of(),
        "",
        1.0,
        1);
  }

  /**
   * The three checks, one component each, over the notifier and the subsystems registered when the
   * check runs.
   */
  abstract static class Base implements ComplianceCheck {
    private final Path path;
    private final Notifier notifier;
    private final BundleContext context;

    Base(Path path, Notifier notifier, BundleContext context) {
      this.path = path;
      this.notifier = notifier;
      this.context = context;
    }

    @Override
    public String id() {
      return path.id();
    }

    @Override
    public String title() {
      return path.title();
    }

    @Override
    public CheckResult run(Instant now) {
      List<SubsystemCheck> subsystems = new ArrayList<>();
      List<ServiceReference<SubsystemCheck>> refs = new ArrayList<>();
      try {
        refs.addAll(context.getServiceReferences(SubsystemCheck.class, null));
        for (ServiceReference<SubsystemCheck> r : refs) {
          SubsystemCheck s = context.getService(r);
          if (s != null) {
            subsystems.add(s);
          }
        }
        return AlertPathChecks.run(path, notifier, subsystems, now);
      } catch (InvalidSyntaxException e) {
        throw new IllegalStateException(e);
      } finally {
        refs.forEach(context::ungetService);
      }
    }
  }

  /** {@code audit-storage-threshold}. */
  @Component(service = ComplianceCheck.class)
  public static final class AuditStorage extends Base {
    @Activate
    public AuditStorage(@Reference Notifier notifier, BundleContext context) {
      super(AUDIT_STORAGE, notifier, context);
    }
  }

  /** {@code audit-failure-alert}. */
  @Component(service = ComplianceCheck.class)
  public static final class AuditFailure extends Base {
    @Activate
    public AuditFailure(@Reference Notifier notifier, BundleContext context) {
      super(AUDIT_FAILURE, notifier, context);
    }
  }

  /** {@code low-resource-alert}. */
  @Component(service = ComplianceCheck.class)
  public static final class LowResources extends Base {
    @Activate
    public LowResources(@Reference Notifier notifier, BundleContext context) {
      super(LOW_RESOURCES, notifier, context);
    }
  }
}
