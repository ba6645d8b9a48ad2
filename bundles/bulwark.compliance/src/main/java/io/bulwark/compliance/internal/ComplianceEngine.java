package io.bulwark.compliance.internal;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import io.bulwark.api.compliance.ComplianceCheck;
import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * Runs the compliance checks the bundles contribute, every {@value #EVERY_MINUTES} minutes and on
 * demand, each bounded to {@value #CHECK_SECONDS} s, and gives every rule of the requirement map
 * its status from the latest results. A check that is not running leaves its rules Not Reviewed,
 * saying so; a check that throws or runs too long is Not Reviewed with what happened.
 */
@Component(service = ComplianceEngine.class, immediate = true)
public final class ComplianceEngine {
  static final int EVERY_MINUTES = 15;
  static final int CHECK_SECONDS = 20;
  private static final Logger LOG = System.getLogger(ComplianceEngine.class.getName());

  /** One rule's status: the map's rule, its status, the evidence and the comment for assessors. */
  record RuleStatus(
      RequirementMap.Rule rule,
      CheckStatus status,
      String findingDetails,
      String comments,
      Instant ranAt) {}

  /** One benchmark's rules with their status. */
  record Benchmark(RequirementMap map, List<RuleStatus> rules) {}

  private final List<RequirementMap> maps;
  private final Clock clock;
  private final Map<String, ComplianceCheck> checks = new ConcurrentHashMap<>();
  private final Map<String, CheckResult> results = new ConcurrentHashMap<>();
  private final ExecutorService runner;
  private final ScheduledExecutorService schedule;

  @Activate
  public ComplianceEngine() throws IOException {
    this(
        List.of(
            RequirementMap.load(RequirementMap.RESOURCE),
            RequirementMap.load(RequirementMap.OS_RESOURCE)),
        Clock.systemUTC(),
        true);
  }

  /**
   * Makes an engine for {@code maps}, the application's first.
   *
   * @param scheduled whether the checks run by themselves (else only on {@link #runAll()})
   */
  ComplianceEngine(List<RequirementMap> maps, Clock clock, boolean scheduled) {
    if (maps.isEmpty()) {
      throw new IllegalArgumentException("no requirement map");
    }
    this.maps = List.copyOf(maps);
    this.clock = clock;
    this.runner =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "bulwark-compliance-check");
              t.setDaemon(true);
              return t;
            });
    this.schedule =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bulwark-compliance");
              t.setDaemon(true);
              return t;
            });
    if (scheduled) {
      schedule.scheduleWithFixedDelay(this::runQuietly, 30, EVERY_MINUTES * 60L, TimeUnit.SECONDS);
    }
  }

  @Deactivate
  void deactivate() {
    schedule.shutdownNow();
    runner.shutdownNow();
  }

  @Reference(
      service = ComplianceCheck.class,
      cardinality = ReferenceCardinality.MULTIPLE,
      policy = ReferencePolicy.DYNAMIC)
  void bindCheck(ComplianceCheck check) {
    checks.put(check.id(), check);
  }

  void unbindCheck(ComplianceCheck check) {
    checks.remove(check.id(), check);
    results.remove(check.id());
  }

  /** Returns the application's map (the first). */
  RequirementMap map() {
    return maps.get(0);
  }

  /** Returns every map with its rules' status, the application's first. */
  List<Benchmark> benchmarks() {
    List<Benchmark> out = new ArrayList<>(maps.size());
    for (RequirementMap m : maps) {
      out.add(new Benchmark(m, rules(m)));
    }
    return out;
  }

  /** Returns the checks running now, by id. */
  Map<String, ComplianceCheck> checks() {
    return new TreeMap<>(checks);
  }

  private void runQuietly() {
    try {
      runAll();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "The compliance checks failed to run; they run again later", e);
    }
  }

  /** Runs every check now (each bounded), keeps the results and returns them by check id. */
  synchronized Map<String, CheckResult> runAll() {
    Map<String, CheckResult> out = new TreeMap<>();
    for (ComplianceCheck c : new TreeMap<>(checks).values()) {
      CheckResult r = run(c);
      results.put(c.id(), r);
      out.put(c.id(), r);
    }
    return out;
  }

  private CheckResult run(ComplianceCheck c) {
    Instant now = clock.instant();
    Future<CheckResult> f = runner.submit(() -> c.run(now));
    try {
      CheckResult r = f.get(CHECK_SECONDS, TimeUnit.SECONDS);
      return r != null && r.check().equals(c.id())
          ? r
          : CheckResult.notReviewed(c.id(), "the check answered no result of its own", now);
    } catch (TimeoutException e) {
      f.cancel(true);
      return CheckResult.notReviewed(
          c.id(), "the check did not answer within " + CHECK_SECONDS + " s", now);
    } catch (ExecutionException e) {
      return CheckResult.notReviewed(c.id(), "the check failed: " + e.getCause(), now);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CheckResult.notReviewed(c.id(), "the check was interrupted", now);
    }
  }

  /** Every rule of the application's map with its status, in the map's order. */
  List<RuleStatus> rules() {
    return rules(map());
  }

  private List<RuleStatus> rules(RequirementMap map) {
    List<RuleStatus> out = new ArrayList<>(map.rules().size());
    for (RequirementMap.Rule r : map.rules()) {
      out.add(status(r));
    }
    return out;
  }

  private RuleStatus status(RequirementMap.Rule r) {
    return switch (r.disposition()) {
      case BY_DESIGN ->
          new RuleStatus(
              r, CheckStatus.NOT_A_FINDING, "By design: " + r.text(), "Met by design.", null);
      case NOT_APPLICABLE ->
          new RuleStatus(r, CheckStatus.NOT_APPLICABLE, "Not applicable: " + r.text(), "", null);
      case MANUAL ->
          new RuleStatus(r, CheckStatus.NOT_REVIEWED, "", "For the assessor: " + r.text(), null);
      case IMAGE ->
          new RuleStatus(
              r,
              CheckStatus.NOT_REVIEWED,
              "Not reviewed: the checks that run against the appliance image's root are not built"
                  + " yet.",
              r.text(),
              null);
      case AUTOMATED -> automated(r);
    };
  }

  private RuleStatus automated(RequirementMap.Rule r) {
    CheckResult result = results.get(r.check());
    if (result == null) {
      String why =
          checks.containsKey(r.check())
              ? "the check " + r.check() + " has not run yet"
              : "no running bundle provides the check " + r.check();
      return new RuleStatus(r, CheckStatus.NOT_REVIEWED, why, "Automated: " + r.text(), null);
    }
    StringBuilder details =
        new StringBuilder(result.summary())
            .append("\nCheck ")
            .append(r.check())
            .append(" ran at ")
            .append(result.ranAt());
    result.evidence().forEach((k, v) -> details.append('\n').append(k).append(": ").append(v));
    return new RuleStatus(
        r, result.status(), details.toString(), "Automated: " + r.text(), result.ranAt());
  }
}
