package io.bulwark.cli;

import io.bulwark.cli.ApiClient.Answer;
import io.bulwark.cli.ApiClient.Refused;
import io.bulwark.cli.ApiClient.Unreachable;
import io.bulwark.cli.CommandLine.Command;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The commands of {@code bulwark}: each calls one route of the API and shows the answer as text for
 * an operator, or as the API's JSON with {@code --json}.
 */
final class Commands {
  /** The most findings one list asks for (the API's bound). */
  static final int MAX_LIMIT = 10_000;

  static final String NO_MACHINES =
      "this appliance has no machines API (it arrives with the machines bundle)";

  /** Every command, in the order the help lists them. */
  static final List<Command> ALL =
      List.of(
          new Command(
              "health",
              "health",
              "the appliance's state and each subsystem's",
              "Shows the appliance's overall state (UP, DEGRADED or DOWN), how long it has run,\n"
                  + "its crypto module, and each subsystem's state and summary; for the subsystems\n"
                  + "that are not UP, what to do.",
              Set.of(),
              Set.of(),
              Commands::health),
          new Command(
              "nodes",
              "nodes",
              "the nodes of the inventory and their GPUs' health",
              "Lists the nodes: GPUs installed and reporting, open findings, the worst open\n"
                  + "finding's severity and the last scrape.",
              Set.of(),
              Set.of(),
              Commands::nodes),
          new Command(
              "capacity",
              "capacity",
              "the effective-capacity headline",
              "Shows the capacity headline (GPUs serving, effective capacity, GPUs unknown),\n"
                  + "the GPUs by state, and the GPU-hours lost over the last 24 hours by cause.",
              Set.of(),
              Set.of(),
              Commands::capacity),
          new Command(
              "findings",
              "findings [--state open|resolved|all] [--kind KIND] [--node NODE] [--limit N]",
              "the health findings, newest first",
              "Lists the findings that match: --state (default: all), --kind (e.g.\n"
                  + "thermal-throttle), --node, and at most --limit of them (default 200, at most\n"
                  + MAX_LIMIT
                  + ").",
              Set.of("--state", "--kind", "--node", "--limit"),
              Set.of(),
              Commands::findings),
          new Command(
              "finding",
              "finding ID",
              "one finding with its workflow, timeline, cost and related findings",
              "Shows the finding, who acknowledged it, who it is assigned to, until when it is\n"
                  + "snoozed, its comments and timeline, the GPU-hours it cost and the findings\n"
                  + "related to it.",
              Set.of(),
              Set.of(),
              Commands::finding),
          new Command(
              "ack",
              "ack ID [--comment TEXT]",
              "acknowledge a finding",
              "Acknowledges the finding, with a comment if given.",
              Set.of("--comment"),
              Set.of(),
              Commands::acknowledge),
          new Command(
              "assign",
              "assign ID USER\nassign ID --none",
              "assign a finding to a user, or to nobody",
              "Assigns the finding to USER; --none takes the assignment away.",
              Set.of(),
              Set.of("--none"),
              Commands::assign),
          new Command(
              "comment",
              "comment ID TEXT…",
              "comment on a finding",
              "Adds a comment to the finding: the words after the id, joined by spaces.\n"
                  + "Put -- before a text that starts with '-'.",
              Set.of(),
              Set.of(),
              Commands::comment),
          new Command(
              "snooze",
              "snooze ID UNTIL [--comment TEXT]\nsnooze ID --end",
              "snooze a finding until a time, or end its snooze",
              "Snoozes the finding until UNTIL: an ISO-8601 instant (2026-03-01T18:00:00Z) or a\n"
                  + "duration from now (30m, 2h, 1d, 1w, 1h30m). --end wakes it now.",
              Set.of("--comment"),
              Set.of("--end"),
              Commands::snooze),
          new Command(
              "export",
              "export [--format csv|json] [--state open|resolved|all] [--out FILE]",
              "export the findings as CSV or JSON",
              "Writes the findings export (default CSV) to standard output, or to FILE (written\n"
                  + "whole or not at all, readable by its owner only).",
              Set.of("--format", "--state", "--out"),
              Set.of(),
              Commands::export),
          new Command(
              "maintenance",
              "maintenance list\n"
                  + "maintenance add NODE [--gpu N] --until UNTIL --reason TEXT\n"
                  + "maintenance end ID",
              "list, add and end maintenance windows",
              "list: the maintenance windows.\n"
                  + "add: puts NODE (or only its GPU N) in maintenance until UNTIL, an ISO-8601\n"
                  + "  instant or a duration from now (30m, 2h, 1d); its findings are still shown\n"
                  + "  but not notified.\n"
                  + "end: ends the window ID now.",
              Set.of("--gpu", "--until", "--reason"),
              Set.of(),
              Commands::maintenance),
          new Command(
              "machines",
              "machines",
              "the machines (where the appliance offers them)",
              "Lists the machines. Exits 4 if this appliance has no machines API yet.",
              Set.of(),
              Set.of(),
              Commands::machines),
          new Command(
              "help",
              "help [COMMAND]",
              "this help, or a command's",
              "Shows the commands, or what COMMAND does and takes.",
              Set.of(),
              Set.of(),
              Commands::help));

  private final Map<String, String> env;
  private final PrintStream out;
  private final Clock clock;
  private final String userAgent;

  Commands(Map<String, String> env, PrintStream out, Clock clock, String userAgent) {
    this.env = env;
    this.out = out;
    this.clock = clock;
    this.userAgent = userAgent;
  }

  /** Returns the command named {@code name}, or null. */
  static Command named(String name) {
    return ALL.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
  }

  private ApiClient api(CommandLine line) throws UsageException, GeneralSecurityException {
    return Connection.open(line, env, userAgent);
  }

  /** Prints the answer as the API wrote it; returns 0. */
  private int raw(Answer answer) {
    out.write(answer.body(), 0, answer.body().length);
    if (answer.body().length > 0 && answer.body()[answer.body().length - 1] != '\n') {
      out.println();
    }
    return Cli.OK;
  }

  private void field(String label, String value) {
    if (value != null && !value.isEmpty()) {
      out.println(String.format(Locale.ROOT, "%-20s %s", label + ":", Text.clean(value)));
    }
  }

  // ---- Read-only views ----

  static int health(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    line.operands(0, 0, "no operands");
    Answer answer = ApiClient.success(c.api(line).get("/api/v1/health", Map.of()));
    if (line.flag("--json")) {
      return c.raw(answer);
    }
    Object health = answer.json();
    StringBuilder head = new StringBuilder("Appliance: ").append(Fields.text(health, "status"));
    if (Fields.has(health, "uptimeSeconds")) {
      head.append(", up ").append(Times.length(Fields.number(health, "uptimeSeconds", 0)));
    }
    if (Fields.has(health, "startedAt")) {
      head.append(" (since ").append(Times.shown(Fields.text(health, "startedAt"))).append(')');
    }
    c.out.println(Text.clean(head.toString()));
    Map<String, Object> crypto = Fields.object(Fields.object(health, "security"), "cryptoModule");
    if (!crypto.isEmpty()) {
      boolean approved = Boolean.TRUE.equals(crypto.get("approvedOnly"));
      boolean tested = Boolean.TRUE.equals(crypto.get("selfTestsPassed"));
      c.out.println(
          Text.clean(
              "Crypto: "
                  + Fields.text(crypto, "name")
                  + " "
                  + Fields.text(crypto, "version")
                  + (approved ? ", approved-only" : ", NOT approved-only")
                  + (tested ? "" : ", self-tests NOT passed")));
    }
    if (Boolean.TRUE.equals(Fields.object(health, "security").get("developmentMode"))) {
      c.out.println("Development mode: secrets are not sealed to a TPM");
    }
    c.out.println();
    Table table = new Table("SUBSYSTEM", "STATE", "SINCE", "SUMMARY");
    List<String> actions = new ArrayList<>();
    for (Object s : Fields.array(health, "subsystems")) {
      String state = Fields.text(s, "state");
      table.row(
          Fields.text(s, "subsystem"),
          state,
          Times.shown(Fields.text(s, "since")),
          Fields.text(s, "summary"));
      if (!state.equalsIgnoreCase("UP") && Fields.has(s, "action")) {
        actions.add(Fields.text(s, "subsystem") + ": " + Fields.text(s, "action"));
      }
    }
    table.print(c.out);
    if (!actions.isEmpty()) {
      c.out.println();
      c.out.println("To do:");
      actions.forEach(a -> c.out.println("  " + a));
    }
    return Cli.OK;
  }

  static int nodes(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    line.operands(0, 0, "no operands");
    Answer answer = ApiClient.success(c.api(line).get("/api/v1/nodes", Map.of()));
    if (line.flag("--json")) {
      return c.raw(answer);
    }
    Table table = new Table("NODE", "GPUS", "REPORTING", "OPEN", "WORST", "LAST SCRAPE");
    for (Object n : Fields.array(answer.json(), "nodes")) {
      table.row(
          Fields.text(n, "id"),
          Fields.text(n, "gpusInstalled"),
          Fields.text(n, "gpusReporting"),
          Fields.text(n, "openFindings"),
          Fields.has(n, "worstSeverity") ? Fields.text(n, "worstSeverity") : "-",
          Fields.has(n, "lastScrape") ? Times.shown(Fields.text(n, "lastScrape")) : "never");
    }
    table.print(c.out);
    c.out.println(plural(table.size(), "node"));
    return Cli.OK;
  }

  static int capacity(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    line.operands(0, 0, "no operands");
    Answer answer = ApiClient.success(c.api(line).get("/api/v1/capacity", Map.of()));
    if (line.flag("--json")) {
      return c.raw(answer);
    }
    Object cap = answer.json();
    c.out.println(
        Fields.has(cap, "headline") ? Fields.text(cap, "headline") : Fields.text(cap, "summary"));
    c.out.println();
    c.field("GPUs installed", Fields.text(cap, "gpusInstalled"));
    c.field(
        "Serving",
        Fields.text(cap, "gpusServing")
            + " ("
            + Fields.text(cap, "gpusHealthy")
            + " healthy, "
            + Fields.text(cap, "gpusDegraded")
            + " degraded)");
    c.field("Failed", Fields.text(cap, "gpusFailed"));
    c.field("Unknown", Fields.text(cap, "gpusUnknown"));
    c.field("Effective capacity", Fields.percent(cap, "effectiveCapacity"));
    c.field("Mean performance", Fields.percent(cap, "meanRelativePerformance"));
    Map<String, Object> lost = Fields.object(Fields.object(cap, "lastDay"), "gpuHoursLost");
    if (!lost.isEmpty()) {
      List<String> causes = new ArrayList<>();
      lost.forEach(
          (cause, hours) -> {
            if (!cause.equals("total") && hours instanceof Number n && n.doubleValue() > 0) {
              causes.add(cause + " " + Fields.show(hours));
            }
          });
      String money = "";
      if (Fields.has(Fields.object(cap, "lastDay"), "moneyLost")) {
        money =
            ", "
                + Fields.text(Fields.object(cap, "lastDay"), "moneyLost")
                + " "
                + Fields.text(Fields.object(cap, "gpuHourPrice"), "currency");
      }
      c.field(
          "Lost, last 24 h",
          Fields.show(lost.get("total"))
              + " GPU-hours"
              + money
              + (causes.isEmpty() ? "" : " (" + String.join(", ", causes) + ")"));
    }
    return Cli.OK;
  }

  static int findings(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    line.operands(0, 0, "no operands");
    Map<String, String> query = new LinkedHashMap<>();
    Optional<String> state = state(line);
    state.ifPresent(s -> query.put("state", s));
    line.value("--kind").ifPresent(k -> query.put("kind", k));
    line.value("--node").ifPresent(n -> query.put("node", n));
    Optional<String> limit = line.value("--limit");
    if (limit.isPresent()) {
      query.put("limit", Integer.toString(integer("--limit", limit.get(), 1, MAX_LIMIT)));
    }
    Answer answer = ApiClient.success(c.api(line).get("/api/v1/findings", query));
    if (line.flag("--json")) {
      return c.raw(answer);
    }
    Object found = answer.json();
    Table table = findingTable();
    for (Object f : Fields.array(found, "findings")) {
      findingRow(table, f);
    }
    table.print(c.out);
    long count = Fields.number(found, "count", table.size());
    long max = Fields.number(found, "limit", -1);
    c.out.println(
        plural(count, "finding")
            + (count == max
                ? " (the first " + max + "; --limit raises it, up to " + MAX_LIMIT + ")"
                : ""));
    return Cli.OK;
  }

  private static Table findingTable() {
    return new Table("ID", "SEVERITY", "STATE", "KIND", "NODE", "GPU", "LAST SEEN", "SUMMARY");
  }

  private static void findingRow(Table table, Object f) {
    table.row(
        Fields.text(f, "id"),
        Fields.text(f, "severity"),
        Fields.text(f, "state"),
        Fields.text(f, "kind"),
        Fields.text(f, "node"),
        gpu(f),
        Times.shown(Fields.text(f, "lastSeen")),
        Fields.text(f, "summary"));
  }

  private static String gpu(Object f) {
    long gpu = Fields.number(f, "gpu", -1);
    return gpu < 0 ? "-" : Long.toString(gpu);
  }

  static int finding(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    String id = line.operands(1, 1, "a finding id").get(0);
    Answer answer = ApiClient.success(c.api(line).get(findingPath(id, ""), Map.of()));
    if (line.flag("--json")) {
      return c.raw(answer);
    }
    Object all = answer.json();
    Map<String, Object> f = Fields.object(all, "finding");
    c.field("Finding", Fields.text(f, "id"));
    c.field("Kind", Fields.text(f, "kind"));
    c.field("Severity", Fields.text(f, "severity"));
    c.field("State", Fields.text(f, "state"));
    c.field("Node", Fields.text(f, "node"));
    c.field(
        "GPU",
        Fields.number(f, "gpu", -1) < 0
            ? "the whole node"
            : gpu(f) + (Fields.has(f, "gpuUuid") ? " (" + Fields.text(f, "gpuUuid") + ")" : ""));
    c.field("First seen", Times.shown(Fields.text(f, "firstSeen")));
    c.field("Last seen", Times.shown(Fields.text(f, "lastSeen")));
    c.field("Resolved", Times.shown(Fields.text(f, "resolvedAt")));
    c.field("Occurrences", Fields.text(f, "occurrences"));
    c.field("Performance", Fields.percent(f, "performanceFactor"));
    c.field("Summary", Fields.text(f, "summary"));
    c.field("Recommended action", Fields.text(f, "recommendedAction"));
    Map<String, Object> evidence = Fields.object(f, "evidence");
    if (!evidence.isEmpty()) {
      List<String> items = new ArrayList<>();
      evidence.forEach((k, v) -> items.add(k + "=" + Fields.show(v)));
      c.field("Evidence", String.join(", ", items));
    }

    Map<String, Object> workflow = Fields.object(all, "workflow");
    c.out.println();
    c.field(
        "Acknowledged",
        Fields.has(workflow, "acknowledgedBy")
            ? "by "
                + Fields.text(workflow, "acknowledgedBy")
                + " at "
                + Times.shown(Fields.text(workflow, "acknowledgedAt"))
            : "no");
    c.field(
        "Assigned to",
        Fields.has(workflow, "assignee") ? Fields.text(workflow, "assignee") : "nobody");
    c.field(
        "Snoozed",
        Fields.has(workflow, "snoozedUntil")
            ? "until "
                + Times.shown(Fields.text(workflow, "snoozedUntil"))
                + (Fields.has(workflow, "snoozedBy")
                    ? " by " + Fields.text(workflow, "snoozedBy")
                    : "")
            : "no");
    Map<String, Object> cost = Fields.object(all, "cost");
    if (Fields.has(cost, "gpuHours")) {
      c.field(
          "Cost",
          Fields.text(cost, "gpuHours")
              + " GPU-hours"
              + (Fields.has(cost, "money")
                  ? ", " + Fields.text(cost, "money") + " " + Fields.text(cost, "currency")
                  : ""));
    }

    List<Object> comments = Fields.array(workflow, "comments");
    if (!comments.isEmpty()) {
      c.out.println();
      c.out.println("Comments:");
      Table table = new Table("AT", "BY", "TEXT");
      comments.forEach(
          k ->
              table.row(
                  Times.shown(Fields.text(k, "at")), Fields.text(k, "by"), Fields.text(k, "text")));
      table.print(c.out);
    }
    List<Object> timeline = Fields.array(all, "timeline");
    if (!timeline.isEmpty()) {
      c.out.println();
      c.out.println("Timeline:");
      Table table = new Table("AT", "EVENT", "BY", "TEXT");
      timeline.forEach(
          t ->
              table.row(
                  Times.shown(Fields.text(t, "at")),
                  Fields.text(t, "event"),
                  Fields.text(t, "by"),
                  Fields.text(t, "text")));
      table.print(c.out);
    }
    List<Object> related = Fields.array(all, "related");
    if (!related.isEmpty()) {
      c.out.println();
      c.out.println("Related:");
      Table table = findingTable();
      for (Object r : related) {
        if (r instanceof Map<?, ?>) {
          findingRow(table, r);
        } else {
          table.row(Fields.show(r));
        }
      }
      table.print(c.out);
    }
    return Cli.OK;
  }

  // ---- The finding workflow ----

  static int acknowledge(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    String id = line.operands(1, 1, "a finding id").get(0);
    Map<String, Object> body = new LinkedHashMap<>();
    line.value("--comment").ifPresent(t -> body.put("comment", t));
    Answer answer = ApiClient.success(c.api(line).post(findingPath(id, "/acknowledge"), body));
    return c.done(line, answer, "Finding " + id + " acknowledged.");
  }

  static int assign(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    boolean none = line.flag("--none");
    List<String> operands =
        none
            ? line.operands(1, 1, "a finding id (and no user with --none)")
            : line.operands(2, 2, "a finding id and a user (or --none)");
    String id = operands.get(0);
    String user = none ? "" : operands.get(1).strip();
    if (!none && user.isEmpty()) {
      throw new UsageException("give the user to assign finding " + id + " to, or --none");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("assignee", user);
    Answer answer = ApiClient.success(c.api(line).post(findingPath(id, "/assign"), body));
    return c.done(
        line,
        answer,
        none
            ? "Finding " + id + " is assigned to nobody."
            : "Finding " + id + " assigned to " + user + ".");
  }

  static int comment(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    List<String> operands =
        line.operands(2, Integer.MAX_VALUE, "a finding id and the comment's text");
    String id = operands.get(0);
    String text = String.join(" ", operands.subList(1, operands.size())).strip();
    if (text.isEmpty()) {
      throw new UsageException("the comment is empty");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("text", text);
    Answer answer = ApiClient.success(c.api(line).post(findingPath(id, "/comments"), body));
    return c.done(line, answer, "Comment added to finding " + id + ".");
  }

  static int snooze(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    boolean end = line.flag("--end");
    List<String> operands =
        end
            ? line.operands(1, 1, "a finding id (and no time with --end)")
            : line.operands(2, 2, "a finding id and until when (2h, 1d, or an instant), or --end");
    String id = operands.get(0);
    Instant until = end ? null : Times.until("UNTIL", operands.get(1), c.clock.instant());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("until", until == null ? null : until.toString());
    line.value("--comment").ifPresent(t -> body.put("comment", t));
    Answer answer = ApiClient.success(c.api(line).post(findingPath(id, "/snooze"), body));
    return c.done(
        line,
        answer,
        end
            ? "Finding " + id + " is no longer snoozed."
            : "Finding " + id + " snoozed until " + until + ".");
  }

  private int done(CommandLine line, Answer answer, String message) {
    if (line.flag("--json")) {
      return answer.body().length == 0 ? Cli.OK : raw(answer);
    }
    out.println(Text.clean(message));
    return Cli.OK;
  }

  // ---- Export ----

  static int export(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, IOException, GeneralSecurityException {
    line.operands(0, 0, "no operands");
    String format = line.value("--format").orElse("csv").toLowerCase(Locale.ROOT);
    if (!format.equals("csv") && !format.equals("json")) {
      throw new UsageException("--format must be csv or json, not '" + Text.clean(format) + "'");
    }
    Map<String, String> query = new LinkedHashMap<>();
    state(line).ifPresent(s -> query.put("state", s));
    String path = "/api/v1/findings." + format;
    String accept = format.equals("csv") ? "text/csv" : "application/json";
    Optional<String> file = line.value("--out");
    if (file.isEmpty()) {
      c.api(line).download(path, query, accept, c.out);
      c.out.flush();
      return Cli.OK;
    }
    Path target = Path.of(file.get()).toAbsolutePath();
    Path folder = target.getParent();
    if (folder == null || !Files.isDirectory(folder)) {
      throw new UsageException("cannot write " + file.get() + ": there is no folder " + folder);
    }
    if (Files.isDirectory(target)) {
      throw new UsageException("cannot write " + file.get() + ": it is a folder");
    }
    ApiClient api = c.api(line);
    long bytes;
    try {
      bytes = writeWhole(target, to -> api.download(path, query, accept, to));
    } catch (IOException e) {
      throw UsageException.cannot("write " + file.get(), e);
    }
    c.out.println(
        Text.clean("Exported the findings to " + file.get() + " (" + plural(bytes, "byte") + ")."));
    return Cli.OK;
  }

  /** Writes a file's content to a stream; returns the number of bytes written. */
  @FunctionalInterface
  private interface Content {
    long writeTo(OutputStream to) throws IOException, Refused, Unreachable;
  }

  /**
   * Writes {@code target} whole or not at all: into a file beside it (readable by its owner only)
   * that replaces it once complete.
   */
  private static long writeWhole(Path target, Content content)
      throws IOException, Refused, Unreachable {
    Path part = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".part");
    try {
      long bytes;
      try (OutputStream to = Files.newOutputStream(part)) {
        bytes = content.writeTo(to);
      }
      try {
        Files.move(
            part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
      }
      return bytes;
    } finally {
      Files.deleteIfExists(part);
    }
  }

  // ---- Maintenance ----

  static int maintenance(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    List<String> operands = line.operands();
    if (operands.isEmpty()) {
      throw new UsageException("'maintenance' needs list, add or end");
    }
    String action = operands.get(0);
    if (!action.equals("add")) {
      for (String option : List.of("--gpu", "--until", "--reason")) {
        if (line.value(option).isPresent()) {
          throw new UsageException(option + " goes with 'maintenance add' only");
        }
      }
    }
    switch (action) {
      case "list" -> {
        line.operands(1, 1, "list and nothing more");
        return c.maintenanceList(line);
      }
      case "add" -> {
        return c.maintenanceAdd(line, line.operands(2, 2, "add and a node").get(1));
      }
      case "end" -> {
        String id = line.operands(2, 2, "end and a maintenance window id").get(1);
        Answer answer =
            ApiClient.success(c.api(line).delete("/api/v1/maintenance/" + ApiClient.encode(id)));
        return c.done(line, answer, "Maintenance window " + id + " ended.");
      }
      default ->
          throw new UsageException(
              "'maintenance' takes list, add or end, not '" + Text.clean(action) + "'");
    }
  }

  private int maintenanceList(CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    Answer answer = ApiClient.success(api(line).get("/api/v1/maintenance", Map.of()));
    if (line.flag("--json")) {
      return raw(answer);
    }
    Table table = new Table("ID", "NODE", "GPU", "ACTIVE", "FROM", "UNTIL", "BY", "REASON");
    for (Object w : firstArray(answer.json(), "windows", "maintenance")) {
      long gpu = Fields.number(w, "gpu", -1);
      table.row(
          Fields.text(w, "id"),
          Fields.text(w, "node"),
          gpu < 0 ? "all" : Long.toString(gpu),
          Boolean.TRUE.equals(Fields.object(w).get("active")) ? "yes" : "no",
          Times.shown(Fields.text(w, "from")),
          Times.shown(Fields.text(w, "until")),
          Fields.text(w, "by"),
          Fields.text(w, "reason"));
    }
    table.print(out);
    out.println(plural(table.size(), "maintenance window"));
    return Cli.OK;
  }

  private int maintenanceAdd(CommandLine line, String node)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    String untilText =
        line.value("--until")
            .orElseThrow(
                () ->
                    new UsageException("'maintenance add' needs --until (2h, 1d, or an instant)"));
    String reason =
        line.value("--reason")
            .map(String::strip)
            .filter(r -> !r.isEmpty())
            .orElseThrow(() -> new UsageException("'maintenance add' needs --reason TEXT"));
    Instant until = Times.until("--until", untilText, clock.instant());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("node", node);
    Optional<String> gpu = line.value("--gpu");
    if (gpu.isPresent()) {
      body.put("gpu", (long) integer("--gpu", gpu.get(), 0, 1023));
    }
    body.put("until", until.toString());
    body.put("reason", reason);
    Answer answer = ApiClient.success(api(line).post("/api/v1/maintenance", body));
    if (line.flag("--json")) {
      return answer.body().length == 0 ? Cli.OK : raw(answer);
    }
    String id = "";
    if (answer.body().length > 0) {
      Object added = answer.json();
      id =
          Fields.has(added, "id")
              ? Fields.text(added, "id")
              : Fields.has(Fields.object(added, "window"), "id")
                  ? Fields.text(Fields.object(added, "window"), "id")
                  : "";
    }
    out.println(
        Text.clean(
            "Maintenance window "
                + (id.isEmpty() ? "" : id + " ")
                + "added: node "
                + node
                + (gpu.isPresent() ? " GPU " + gpu.get() : "")
                + " until "
                + until
                + "."));
    return Cli.OK;
  }

  // ---- Machines ----

  static int machines(Commands c, CommandLine line)
      throws UsageException, Refused, Unreachable, GeneralSecurityException {
    line.operands(0, 0, "no operands");
    Answer answer = c.api(line).get("/api/v1/machines", Map.of());
    if (answer.status() == 404) {
      throw new NotAvailable(NO_MACHINES);
    }
    ApiClient.success(answer);
    if (line.flag("--json")) {
      return c.raw(answer);
    }
    List<Object> machines = firstArray(answer.json(), "machines");
    List<String> columns = new ArrayList<>();
    for (Object m : machines) {
      Fields.object(m)
          .forEach(
              (k, v) -> {
                if (!(v instanceof Map<?, ?>) && !(v instanceof List<?>) && !columns.contains(k)) {
                  columns.add(k);
                }
              });
    }
    List<String> shown = columns.subList(0, Math.min(8, columns.size()));
    Table table =
        new Table(shown.stream().map(k -> k.toUpperCase(Locale.ROOT)).toArray(String[]::new));
    for (Object m : machines) {
      table.row(shown.stream().map(k -> Fields.text(m, k)).toArray(String[]::new));
    }
    table.print(c.out);
    c.out.println(plural(machines.size(), "machine"));
    return Cli.OK;
  }

  /** The appliance does not offer what was asked (exit 4). */
  static final class NotAvailable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotAvailable(String message) {
      super(message);
    }
  }

  // ---- Help ----

  static int help(Commands c, CommandLine line) throws UsageException {
    List<String> operands = line.operands(0, 1, "at most a command's name");
    if (operands.isEmpty()) {
      c.out.print(Cli.usage());
      return Cli.OK;
    }
    Command command = named(operands.get(0));
    if (command == null) {
      throw new UsageException("unknown command '" + Text.clean(operands.get(0)) + "'");
    }
    c.out.print(Cli.help(command));
    return Cli.OK;
  }

  // ---- Helpers ----

  private static Optional<String> state(CommandLine line) throws UsageException {
    Optional<String> state = line.value("--state").map(s -> s.strip().toLowerCase(Locale.ROOT));
    if (state.isPresent() && !Set.of("open", "resolved", "all").contains(state.get())) {
      throw new UsageException(
          "--state must be open, resolved or all, not '" + Text.clean(state.get()) + "'");
    }
    return state;
  }

  private static int integer(String option, String value, int min, int max) throws UsageException {
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Said below.
    }
    throw new UsageException(
        option
            + " must be a whole number from "
            + min
            + " to "
            + max
            + ", not '"
            + Text.clean(value)
            + "'");
  }

  private static String findingPath(String id, String action) throws UsageException {
    if (id.isBlank()) {
      throw new UsageException("the finding id is empty");
    }
    return "/api/v1/findings/" + ApiClient.encode(id) + action;
  }

  private static List<Object> firstArray(Object answer, String... keys) {
    if (answer instanceof List<?>) {
      return Fields.array(answer);
    }
    for (String key : keys) {
      if (Fields.object(answer).get(key) instanceof List<?>) {
        return Fields.array(answer, key);
      }
    }
    for (Object value : Fields.object(answer).values()) {
      if (value instanceof List<?>) {
        return Fields.array(value);
      }
    }
    return List.of();
  }

  private static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
