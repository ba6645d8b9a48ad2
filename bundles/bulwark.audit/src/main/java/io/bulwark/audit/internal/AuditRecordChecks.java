package io.bulwark.audit.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditQuery;
import io.bulwark.api.audit.AuditRecord;
import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.ComplianceCheck;
import java.time.Instant;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/** The compliance checks that read the audit records themselves. */
final class AuditRecordChecks {
  private AuditRecordChecks() {}

  /** A check's id and title. */
  abstract static class Check implements ComplianceCheck {
    private final String id;
    private final String title;

    Check(String id, String title) {
      this.id = id;
      this.title = title;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public String title() {
      return title;
    }
  }

  /**
   * {@code audit-record-fields}: the latest records (up to {@value #SAMPLE}) each carry what the
   * STIG asks a record to establish: a sequence, a UTC time to the second or finer, the actor, the
   * source address, the action (the component and function), the target and the outcome.
   */
  @Component(service = ComplianceCheck.class)
  public static final class Fields extends Check {
    static final String ID = "audit-record-fields";
    static final int SAMPLE = 500;
    private final AuditLog audit;

    @Activate
    public Fields(@Reference AuditLog audit) {
      super(
          ID,
          "Every audit record says when (UTC), who, from where, what, on what and with which"
              + " outcome");
      this.audit = audit;
    }

    @Override
    public CheckResult run(Instant now) {
      List<AuditRecord> records = latest(audit, SAMPLE);
      if (records.isEmpty()) {
        return CheckResult.notReviewed(ID, "the audit log holds no record yet", now);
      }
      List<String> faults = new ArrayList<>();
      long withSource = 0;
      for (AuditRecord r : records) {
        AuditEvent e = r.event();
        String where = "record " + r.sequence();
        if (e.actor().isBlank()) {
          faults.add(where + " names no actor");
        }
        if (e.action().isBlank() || !e.action().contains(".")) {
          faults.add(where + " has no component.function action: '" + e.action() + "'");
        }
        if (e.outcome() == null) {
          faults.add(where + " has no outcome");
        }
        if (r.at().getLong(ChronoField.INSTANT_SECONDS) <= 0) {
          faults.add(where + " has no time");
        }
        withSource += e.source().isBlank() ? 0 : 1;
      }
      AuditRecord last = records.get(records.size() - 1);
      Map<String, String> evidence = new LinkedHashMap<>();
      evidence.put("recordsRead", Integer.toString(records.size()));
      evidence.put("sequences", records.get(0).sequence() + "–" + last.sequence());
      evidence.put("recordsWithSourceAddress", Long.toString(withSource));
      evidence.put("timeFormat", "ISO-8601 UTC, to the millisecond (e.g. " + last.at() + ")");
      evidence.put(
          "latestRecord",
          "#"
              + last.sequence()
              + " "
              + last.at()
              + " actor="
              + last.event().actor()
              + " source="
              + last.event().source()
              + " action="
              + last.event().action()
              + " target="
              + last.event().target()
              + " outcome="
              + last.event().outcome());
      if (!faults.isEmpty()) {
        evidence.put("faults", String.join("; ", faults.subList(0, Math.min(10, faults.size()))));
        return CheckResult.open(
            ID, faults.size() + " of the latest records lack a field the STIG asks", evidence, now);
      }
      return CheckResult.met(
          ID,
          "each of the latest "
              + records.size()
              + " records carries its UTC time, actor, source, action, target and outcome",
          evidence,
          now);
    }
  }

  /**
   * {@code audit-event-classes}: the log holds a record of each class of event the STIG asks to be
   * audited (account creation, modification, removal and enabling; logons that succeeded and that
   * failed; session creation; privileged functions; configuration changes; access to security
   * objects). A class with no record yet leaves the rules Not Reviewed, naming what to do once so
   * the check can see it.
   */
  @Component(service = ComplianceCheck.class)
  public static final class Classes extends Check {
    static final String ID = "audit-event-classes";

    /** A class of event: the actions that record it and, if it matters, the outcome. */
    record EventClass(String name, List<String> actions, AuditOutcome outcome, String toDo) {}

    static final List<EventClass> CLASSES =
        List.of(
            new EventClass("account creation", List.of("user.create"), null, "create a user"),
            new EventClass(
                "account modification",
                List.of("password.change", "user.update"),
                null,
                "change a password"),
            new EventClass("account removal", List.of("user.delete"), null, "delete a user"),
            new EventClass("account enabling", List.of("user.unlock"), null, "unlock a user"),
            new EventClass(
                "successful logon (session created)",
                List.of("session.login"),
                AuditOutcome.SUCCESS,
                "log in"),
            new EventClass(
                "unsuccessful logon",
                List.of("session.login"),
                AuditOutcome.FAILURE,
                "log in with a wrong password"),
            new EventClass(
                "privileges granted or removed, privileged functions",
                List.of("user.create", "user.delete", "token.create", "token.revoke"),
                null,
                "create or delete a user or an API token"),
            new EventClass(
                "configuration changes",
                List.of("setting.changed", "settings.in-effect"),
                null,
                "restart the appliance"),
            new EventClass(
                "access to security objects",
                List.of("audit.export", "tls.import", "compliance.export"),
                null,
                "export the audit log"));

    private final AuditLog audit;

    @Activate
    public Classes(@Reference AuditLog audit) {
      super(ID, "The audit log holds a record of each class of event the STIG asks to be audited");
      this.audit = audit;
    }

    @Override
    public CheckResult run(Instant now) {
      Map<String, String> evidence = new TreeMap<>();
      List<String> missing = new ArrayList<>();
      for (EventClass c : CLASSES) {
        Optional<AuditRecord> first = first(c);
        if (first.isPresent()) {
          AuditRecord r = first.get();
          evidence.put(
              c.name(),
              "#"
                  + r.sequence()
                  + " "
                  + r.at()
                  + " "
                  + r.event().action()
                  + " by "
                  + r.event().actor()
                  + " ("
                  + r.event().outcome()
                  + ")");
        } else {
          evidence.put(c.name(), "no record yet");
          missing.add(c.name() + " (" + c.toDo() + ")");
        }
      }
      if (!missing.isEmpty()) {
        return new CheckResult(
            ID,
            io.bulwark.api.compliance.CheckStatus.NOT_REVIEWED,
            "no record yet of: "
                + String.join("; ", missing)
                + ". Do each once, then run the checks again",
            evidence,
            now);
      }
      return CheckResult.met(
          ID,
          "the log holds a record of each of the " + CLASSES.size() + " classes",
          evidence,
          now);
    }

    private Optional<AuditRecord> first(EventClass c) {
      for (String action : c.actions()) {
        List<AuditRecord> r =
            audit.search(
                new AuditQuery(
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of(action),
                    Optional.ofNullable(c.outcome()),
                    0,
                    1));
        if (!r.isEmpty()) {
          return Optional.of(r.get(0));
        }
      }
      return Optional.empty();
    }
  }

  /**
   * {@code audit-at-startup}: auditing began with this start of the appliance: the settings in
   * effect were recorded at or after the moment the process started.
   */
  @Component(service = ComplianceCheck.class)
  public static final class AtStartup extends Check {
    static final String ID = "audit-at-startup";
    private final AuditLog audit;
    private final Instant processStart;

    @Activate
    public AtStartup(@Reference AuditLog audit) {
      this(
          audit,
          Instant.ofEpochMilli(
              java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime()));
    }

    AtStartup(AuditLog audit, Instant processStart) {
      super(ID, "Auditing starts with the appliance: the settings in effect are recorded at start");
      this.audit = audit;
      this.processStart = processStart;
    }

    @Override
    public CheckResult run(Instant now) {
      // Only the records since this start are read: the first of them is found by sequence probes.
      long since = firstSequenceAtOrAfter(audit, processStart) - 1;
      List<AuditRecord> recorded = page(since);
      AuditRecord latest = recorded.isEmpty() ? null : recorded.get(recorded.size() - 1);
      Map<String, String> evidence = new LinkedHashMap<>();
      evidence.put("processStarted", processStart.toString());
      if (latest == null) {
        return CheckResult.open(
            ID,
            "the log holds no record of the settings in effect since this start of the appliance",
            evidence,
            now);
      }
      evidence.put(
          "settingsRecorded",
          "#" + latest.sequence() + " " + latest.at() + " " + SettingChanges.IN_EFFECT);
      evidence.put("configurations", String.valueOf(latest.event().details().size()));
      return CheckResult.met(
          ID,
          "the settings in effect were recorded "
              + java.time.Duration.between(processStart, latest.at()).toSeconds()
              + " s after the process started",
          evidence,
          now);
    }

    private List<AuditRecord> page(long after) {
      return audit.search(
          new AuditQuery(
              Optional.empty(),
              Optional.empty(),
              Optional.empty(),
              Optional.of(SettingChanges.IN_EFFECT),
              Optional.empty(),
              after,
              1000));
    }
  }

  /**
   * {@code audit-search}: the log answers a search by time, action and outcome (as the Audit page
   * and {@code GET /api/v1/audit} ask it), here the logins of the last 24 hours.
   */
  @Component(service = ComplianceCheck.class)
  public static final class Search extends Check {
    static final String ID = "audit-search";
    private final AuditLog audit;

    @Activate
    public Search(@Reference AuditLog audit) {
      super(ID, "The audit log can be searched by time, actor, action and outcome");
      this.audit = audit;
    }

    @Override
    public CheckResult run(Instant now) {
      long started = System.nanoTime();
      List<AuditRecord> found =
          audit.search(
              new AuditQuery(
                  Optional.of(now.minus(java.time.Duration.ofHours(24))),
                  Optional.of(now.plusSeconds(1)),
                  Optional.empty(),
                  Optional.of("session.login"),
                  Optional.empty(),
                  0,
                  1000));
      long millis = (System.nanoTime() - started) / 1_000_000;
      Map<String, String> evidence = new LinkedHashMap<>();
      evidence.put(
          "query", "action=session.login from " + now.minus(java.time.Duration.ofHours(24)));
      evidence.put("recordsFound", Integer.toString(found.size()));
      evidence.put("answeredInMillis", Long.toString(millis));
      evidence.put("filters", "from, to, actor, action, outcome; paged by sequence");
      evidence.put("where", "Audit page; GET /api/v1/audit (admins and auditors)");
      return CheckResult.met(
          ID,
          "a search of the last 24 hours' logins found "
              + found.size()
              + " records in "
              + millis
              + " ms",
          evidence,
          now);
    }
  }

  /**
   * Returns the sequence of the first record stamped at or after {@code t} (one past the last when
   * none is), found by one-record probes: records are appended in time order.
   */
  static long firstSequenceAtOrAfter(AuditLog audit, Instant t) {
    long low = 1;
    long high = lastSequence(audit) + 1;
    while (low < high) {
      long mid = low + (high - low) / 2;
      List<AuditRecord> r = audit.search(after(mid - 1, 1));
      if (r.isEmpty() || !r.get(0).at().isBefore(t)) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return low;
  }

  /** Returns the latest {@code n} records, oldest first. */
  static List<AuditRecord> latest(AuditLog audit, int n) {
    long last = lastSequence(audit);
    return last == 0 ? List.of() : audit.search(after(Math.max(0, last - n), n));
  }

  /**
   * Returns the last record's sequence (0 for an empty log), found by probing with one-record
   * searches, which the log's sequence index answers without reading it through.
   */
  static long lastSequence(AuditLog audit) {
    if (audit.search(after(0, 1)).isEmpty()) {
      return 0;
    }
    long low = 1; // a record with a sequence > low - 1 exists
    long high = 1;
    while (!audit.search(after(high, 1)).isEmpty()) {
      low = high + 1;
      high = high * 2;
    }
    // some record > low - 1 exists, none > high
    while (low < high) {
      long mid = low + (high - low) / 2;
      if (audit.search(after(mid, 1)).isEmpty()) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return low;
  }

  private static AuditQuery after(long sequence, int limit) {
    return new AuditQuery(
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        sequence,
        limit);
  }
}
