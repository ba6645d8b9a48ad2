package io.bulwark.web.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingQuery;
import io.bulwark.api.health.HealthService;
import io.bulwark.web.api.ApiRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * {@code GET /api/v1/findings?state=open|resolved|all&kind=…&node=…&limit=…}: the findings that
 * match, newest first. Runs on a worker thread (findings come from the store).
 */
final class FindingsResource {
  static final int DEFAULT_LIMIT = 200;
  static final int MAX_LIMIT = 10_000;

  private final HealthService health;

  FindingsResource(HealthService health) {
    this.health = health;
  }

  void list(RoutingContext ctx) {
    FindingQuery query =
        new FindingQuery(
            QueryParameters.findingState(ctx, "state"),
            QueryParameters.findingKind(ctx, "kind"),
            QueryParameters.node(ctx, "node"),
            QueryParameters.integer(ctx, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT));
    List<Finding> found = health.findings(query);
    JsonArray findings = new JsonArray();
    found.stream().limit(query.limit()).forEach(f -> findings.add(ApiJson.finding(f)));
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("findings", findings)
            .put("count", findings.size())
            .put("limit", query.limit()));
  }
}
