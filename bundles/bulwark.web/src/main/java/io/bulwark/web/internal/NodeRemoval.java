package io.bulwark.web.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.audit.AuditUnavailableException;
import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.fleet.Node;
import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.telemetry.TelemetryQuery;
import io.bulwark.api.telemetry.TelemetryTargets;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Removes nodes that are not (or no longer) part of the fleet, e.g. the ones a broken exporter
 * invented: {@code DELETE /api/v1/nodes/{node}} removes one, {@code POST
 * /api/v1/nodes/remove-silent} ({@code {"silentForMinutes":60,"dryRun":true}}) every node telemetry
 * has not heard from for that long. A node goes from the inventory and from telemetry's memory; a
 * node a target still reports is refused (409), since it would come back at the next scrape. Admin
 * only; every removal is audited as {@code node.remove} before it is made.
 */
final class NodeRemoval {
  private static final int MAX_SILENT_MINUTES = 60 * 24 * 365;
  private static final int NAMES_IN_AUDIT = 50;

  /** How long a node must have been silent to be removed. */
  static final long QUIET_MILLIS = 60_000;

  private final FleetRepository fleet;
  private final TelemetryQuery telemetry;
  private final TelemetryTargets targets;
  private final Supplier<AuditLog> audit;
  private final Clock clock;

  /** {@code audit} gives the audit log, or throws if it is not there now. */
  NodeRemoval(
      FleetRepository fleet,
      TelemetryQuery telemetry,
      TelemetryTargets targets,
      Supplier<AuditLog> audit,
      Clock clock) {
    this.fleet = fleet;
    this.telemetry = telemetry;
    this.targets = targets;
    this.audit = audit;
    this.clock = clock;
  }

  /** {@code DELETE /api/v1/nodes/{node}}. */
  void removeOne(RoutingContext ctx) {
    NodeId id = QueryParameters.pathNode(ctx, "node");
    boolean inInventory = fleet.node(id).isPresent();
    boolean inTelemetry = telemetry.lastScrapeMillis(id).isPresent();
    if (!inInventory && !inTelemetry) {
      throw ApiProblem.notFound("No node named '" + id + "' is in the inventory or telemetry.");
    }
    String refusal = stillReported(id);
    if (refusal != null) {
      audit(ctx, id.value(), AuditOutcome.FAILURE, Map.of("reason", refusal));
      throw ApiProblem.conflict(refusal);
    }
    audit(ctx, id.value(), AuditOutcome.SUCCESS, Map.of());
    remove(id);
    ctx.response().setStatusCode(204).end();
  }

  /** {@code POST /api/v1/nodes/remove-silent}. */
  void removeSilent(RoutingContext ctx) {
    JsonObject body = ApiRequest.body(ctx);
    Object minutesValue = body.getValue("silentForMinutes");
    if (!(minutesValue instanceof Number n)
        || n.doubleValue() != Math.rint(n.doubleValue())
        || n.longValue() < 1
        || n.longValue() > MAX_SILENT_MINUTES) {
      throw ApiProblem.invalidBody(
          "'silentForMinutes' must be a whole number of minutes from 1 to " + MAX_SILENT_MINUTES);
    }
    Object dryRunValue = body.getValue("dryRun", false);
    if (!(dryRunValue instanceof Boolean dryRun)) {
      throw ApiProblem.invalidBody("'dryRun' must be true or false");
    }
    Instant cutoff = clock.instant().minus(Duration.ofMinutes(n.longValue()));
    List<NodeId> silent = new ArrayList<>();
    for (Node node : fleet.nodes()) {
      OptionalLong last = telemetry.lastScrapeMillis(node.id());
      if (last.isEmpty() || last.getAsLong() < cutoff.toEpochMilli()) {
        if (stillReported(node.id()) == null) {
          silent.add(node.id());
        }
      }
    }
    JsonArray names = new JsonArray();
    silent.forEach(id -> names.add(id.value()));
    if (!dryRun && !silent.isEmpty()) {
      List<String> listed = silent.stream().limit(NAMES_IN_AUDIT).map(NodeId::value).toList();
      audit(
          ctx,
          silent.size() + " node(s)",
          AuditOutcome.SUCCESS,
          Map.of(
              "silentForMinutes",
              Long.toString(n.longValue()),
              "nodes",
              String.join(",", listed) + (silent.size() > listed.size() ? ",…" : "")));
      silent.forEach(this::remove);
    }
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("dryRun", dryRun)
            .put("silentForMinutes", n.longValue())
            .put("count", silent.size())
            .put("nodes", names));
  }

  /** Returns why {@code id} cannot be removed now (a target still reports it), or null. */
  private String stillReported(NodeId id) {
    OptionalLong last = telemetry.lastScrapeMillis(id);
    long now = clock.millis();
    if (last.isEmpty() || now - last.getAsLong() >= QUIET_MILLIS) {
      return null;
    }
    String by =
        targets.targets().stream()
            .filter(t -> t.node().equals(id.value()))
            .map(t -> t.target().url())
            .findFirst()
            .orElse("a scrape target");
    return "telemetry still receives samples of "
        + id.value()
        + " from "
        + by
        + ": remove that target from the targets file (or stop its exporter) first, then wait a"
        + " minute";
  }

  /** Removes a node that passed {@link #stillReported} and whose removal is audited. */
  private void remove(NodeId id) {
    try {
      targets.forget(id);
    } catch (IllegalStateException reportedAgain) {
      throw ApiProblem.conflict(reportedAgain.getMessage());
    }
    fleet.remove(id);
  }

  private void audit(
      RoutingContext ctx, String target, AuditOutcome outcome, Map<String, String> details) {
    try {
      audit
          .get()
          .append(
              new AuditEvent(
                  ApiRequest.caller(ctx).name(),
                  ApiRequest.source(ctx),
                  "node.remove",
                  target,
                  outcome,
                  details));
    } catch (AuditUnavailableException e) {
      throw ApiProblem.auditUnavailable("nothing was removed: the audit log cannot record it");
    }
  }
}
