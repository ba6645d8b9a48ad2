package io.bulwark.web.internal;

import io.bulwark.api.system.SubsystemCheck;
import io.bulwark.api.system.SubsystemState;
import io.bulwark.api.system.SubsystemStatus;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * Every {@link SubsystemCheck} the appliance's bundles register, read for the health API, {@code
 * /metrics} and the System page, and every {@link io.bulwark.web.api.MetricsSource} for {@code
 * /metrics}. A subsystem the appliance must have but that nobody reports (its bundle stopped or
 * failed) is reported DOWN, and a check that throws is reported DOWN with what it threw: the
 * appliance never looks healthier than it can see. A component of its own with no static
 * references, so that a bundle coming or going never restarts the web server.
 */
@Component(service = SubsystemChecks.class)
public final class SubsystemChecks {
  /** The subsystems every appliance has; a missing report from one of them is DOWN. */
  static final List<String> EXPECTED = List.of("store", "audit", "telemetry", "engine");

  private static final System.Logger LOG = System.getLogger(SubsystemChecks.class.getName());

  private final Set<SubsystemCheck> checks = new CopyOnWriteArraySet<>();
  private final Map<String, Instant> missingSince = new ConcurrentHashMap<>();
  private final Clock clock;

  public SubsystemChecks() {
    this(Clock.systemUTC());
  }

  SubsystemChecks(Clock clock) {
    this.clock = clock;
  }

  @Reference(
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "remove")
  void add(SubsystemCheck check) {
    checks.add(check);
  }

  void remove(SubsystemCheck check) {
    checks.remove(check);
  }

  private final Set<io.bulwark.web.api.MetricsSource> sources = new CopyOnWriteArraySet<>();

  /** The bundles' metric families for {@code /metrics}, kept here beside the reports. */
  @Reference(
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC,
      policyOption = ReferencePolicyOption.GREEDY,
      unbind = "removeSource")
  void addSource(io.bulwark.web.api.MetricsSource source) {
    sources.add(source);
  }

  void removeSource(io.bulwark.web.api.MetricsSource source) {
    sources.remove(source);
  }

  /** Returns the metric sources registered now. */
  List<io.bulwark.web.api.MetricsSource> sources() {
    return List.copyOf(sources);
  }

  /** Returns every subsystem's state, sorted by name, the expected ones included. */
  List<SubsystemStatus> statuses() {
    Map<String, SubsystemStatus> byName = new TreeMap<>();
    for (SubsystemCheck check : checks) {
      SubsystemStatus status = read(check);
      byName.merge(status.subsystem(), status, SubsystemChecks::worse);
    }
    Instant now = clock.instant();
    for (String name : EXPECTED) {
      if (byName.containsKey(name)) {
        missingSince.remove(name);
      } else {
        byName.put(
            name,
            new SubsystemStatus(
                name,
                SubsystemState.DOWN,
                "no report from the "
                    + name
                    + " subsystem: the bundle that provides it is not running",
                "Open the bundle list below and start or reinstall the bundle; its log says why"
                    + " it stopped",
                missingSince.computeIfAbsent(name, n -> now),
                Map.of()));
      }
    }
    List<SubsystemStatus> all = new ArrayList<>(byName.values());
    all.sort(Comparator.comparing(SubsystemStatus::subsystem));
    return all;
  }

  private SubsystemStatus read(SubsystemCheck check) {
    try {
      SubsystemStatus status = check.status();
      if (status != null) {
        return status;
      }
      throw new IllegalStateException("its check answered nothing");
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "A subsystem check failed: {0}", e.toString());
      return new SubsystemStatus(
          check.getClass().getSimpleName(),
          SubsystemState.DOWN,
          "its check failed: " + e,
          "See the log for the failing check",
          clock.instant(),
          Map.of());
    }
  }

  private static SubsystemStatus worse(SubsystemStatus a, SubsystemStatus b) {
    return b.state().ordinal() > a.state().ordinal() ? b : a;
  }

  /** Returns the appliance's state: the worst of its subsystems'. */
  static SubsystemState overall(List<SubsystemStatus> statuses) {
    SubsystemState worst = SubsystemState.UP;
    for (SubsystemStatus s : statuses) {
      worst = worst.worst(s.state());
    }
    return worst;
  }
}
