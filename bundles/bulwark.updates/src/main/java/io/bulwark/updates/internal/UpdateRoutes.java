package io.bulwark.updates.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiProblem;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.ApiUpload;
import io.bulwark.web.api.RouteContributor;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code GET /api/v1/updates}: the running version and bundle set, the install in progress with its
 * phase and progress, the previous set, and the packages on the update stick; {@code GET
 * /api/v1/updates/history}; for admins, {@code POST /api/v1/updates/stick/:file/install}, {@code
 * POST /api/v1/updates/upload} (the package streamed as the body) and {@code POST
 * /api/v1/updates/rollback}; {@code GET /api/v1/updates/plugins} (what runs, what may be removed,
 * what is offered) and, for admins, {@code POST /api/v1/updates/plugins/:bundle/install} and {@code
 * .../remove}. Every request that starts an install is audited with its caller.
 */
@Component(service = RouteContributor.class)
public final class UpdateRoutes implements RouteContributor {
  /** The largest package taken (the manifest's own limit on all files, and its metadata). */
  static final long MAX_PACKAGE_BYTES = UpdateManifest.MAX_TOTAL_BYTES + (64L << 20);

  private static final java.util.regex.Pattern BUNDLE =
      java.util.regex.Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}");

  private final UpdateService updates;
  private final AuditLog audit;

  @Activate
  public UpdateRoutes(@Reference UpdateService updates, @Reference AuditLog audit) {
    this.updates = updates;
    this.audit = audit;
  }

  @Override
  public String name() {
    return "updates";
  }

  @Override
  public List<ApiRoute> routes() {
    EnumSet<Role> admins = EnumSet.of(Role.ADMIN);
    return List.of(
        ApiRoute.get("/api/v1/updates", ApiRoute.ANY_ROLE, this::status),
        ApiRoute.get("/api/v1/updates/history", ApiRoute.ANY_ROLE, this::history),
        ApiRoute.post("/api/v1/updates/stick/:file/install", admins, this::installFromStick),
        ApiRoute.upload("/api/v1/updates/upload", admins, this::upload),
        ApiRoute.post("/api/v1/updates/rollback", admins, this::rollback),
        ApiRoute.get("/api/v1/updates/plugins", ApiRoute.ANY_ROLE, this::plugins),
        ApiRoute.post("/api/v1/updates/plugins/:bundle/install", admins, this::installPlugin),
        ApiRoute.post("/api/v1/updates/plugins/:bundle/remove", admins, this::removePlugin));
  }

  private void status(RoutingContext ctx) {
    try {
      ApiRequest.json(ctx, updates.status());
    } catch (IOException e) {
      throw ApiProblem.unavailable(
          "the update state cannot be read: " + updates.named(e.getMessage()));
    }
  }

  private void history(RoutingContext ctx) {
    try {
      ApiRequest.json(
          ctx, new JsonObject().put("updates", new JsonArray(List.copyOf(updates.history()))));
    } catch (IOException e) {
      throw ApiProblem.unavailable(
          "the update history cannot be read: " + updates.named(e.getMessage()));
    }
  }

  private void installFromStick(RoutingContext ctx) {
    String file = ctx.pathParam("file");
    JsonObject body = ctx.body().length() > 0 ? ApiRequest.body(ctx) : new JsonObject();
    boolean downgrade = body.getValue("allowDowngrade") instanceof Boolean b && b;
    String by = ApiRequest.caller(ctx).name();
    String source = ApiRequest.source(ctx);
    try {
      UpdateService.Job j = updates.installFromStick(file, downgrade, by, source);
      requested(by, source, "stick:" + file, downgrade, AuditOutcome.SUCCESS, "");
      ApiRequest.json(ctx, 202, j.toJson());
    } catch (IllegalArgumentException e) {
      requested(
          by,
          source,
          "stick:" + file,
          downgrade,
          AuditOutcome.FAILURE,
          updates.named(e.getMessage()));
      throw ApiProblem.invalidParameter("file", updates.named(e.getMessage()));
    } catch (NoSuchElementException e) {
      requested(
          by,
          source,
          "stick:" + file,
          downgrade,
          AuditOutcome.FAILURE,
          updates.named(e.getMessage()));
      throw ApiProblem.notFound(updates.named(e.getMessage()));
    } catch (IllegalStateException e) {
      requested(
          by,
          source,
          "stick:" + file,
          downgrade,
          AuditOutcome.FAILURE,
          updates.named(e.getMessage()));
      throw ApiProblem.conflict(updates.named(e.getMessage()));
    }
  }

  private void upload(RoutingContext ctx) {
    String by = ApiRequest.caller(ctx).name();
    String source = ApiRequest.source(ctx);
    boolean downgrade = "true".equals(ctx.request().getParam("allowDowngrade"));
    String name = ctx.request().getParam("name");
    String label = name != null && name.matches("[A-Za-z0-9._-]{1,128}") ? name : "package";
    ctx.vertx()
        .executeBlocking(
            () -> {
              Path file = updates.incoming();
              long free = Files.getFileStore(file.getParent()).getUsableSpace();
              String length = ctx.request().getHeader("Content-Length");
              if (length != null
                  && length.strip().matches("[0-9]{1,19}")
                  && Long.parseLong(length.strip()) * 2 + (256L << 20) > free) {
                throw ApiProblem.unavailable(
                    "the package needs twice its size and 256 MiB free; the update folder has "
                        + (free >> 20)
                        + " MiB");
              }
              return file;
            },
            false)
        .compose(file -> ApiUpload.receive(ctx, file, MAX_PACKAGE_BYTES, 60))
        .compose(
            received ->
                ctx.vertx()
                    .executeBlocking(
                        () -> {
                          try {
                            UpdateService.Job j =
                                updates.installUploaded(
                                    received.file(), label, downgrade, by, source);
                            requested(
                                by, source, "upload:" + label, downgrade, AuditOutcome.SUCCESS, "");
                            return j;
                          } catch (IllegalStateException e) {
                            Files.deleteIfExists(received.file());
                            throw ApiProblem.conflict(updates.named(e.getMessage()));
                          }
                        },
                        false))
        .onSuccess(j -> ApiRequest.json(ctx, 202, j.toJson()))
        .onFailure(
            e ->
                ctx.vertx()
                    .executeBlocking(
                        () -> {
                          requested(
                              by,
                              source,
                              "upload:" + label,
                              downgrade,
                              AuditOutcome.FAILURE,
                              updates.named(String.valueOf(e.getMessage())));
                          return null;
                        },
                        false)
                    .onComplete(r -> ctx.fail(e)));
  }

  private void rollback(RoutingContext ctx) {
    String by = ApiRequest.caller(ctx).name();
    String source = ApiRequest.source(ctx);
    try {
      UpdateService.Job j = updates.rollback(by, source);
      audit.append(
          new AuditEvent(
              by, source, "update.rollback.request", "previous", AuditOutcome.SUCCESS, Map.of()));
      ApiRequest.json(ctx, 202, j.toJson());
    } catch (IllegalStateException e) {
      audit.append(
          new AuditEvent(
              by,
              source,
              "update.rollback.request",
              "previous",
              AuditOutcome.FAILURE,
              Map.of("error", updates.named(e.getMessage()))));
      throw ApiProblem.conflict(updates.named(e.getMessage()));
    } catch (IOException e) {
      throw ApiProblem.unavailable(
          "the update state cannot be read: " + updates.named(e.getMessage()));
    }
  }

  private void plugins(RoutingContext ctx) {
    try {
      ApiRequest.json(ctx, updates.plugins());
    } catch (IOException | IllegalArgumentException e) {
      throw ApiProblem.unavailable(
          "the plugins cannot be listed: " + updates.named(e.getMessage()));
    }
  }

  private void installPlugin(RoutingContext ctx) {
    changePlugin(ctx, true);
  }

  private void removePlugin(RoutingContext ctx) {
    changePlugin(ctx, false);
  }

  private void changePlugin(RoutingContext ctx, boolean install) {
    String bundle = ctx.pathParam("bundle");
    String by = ApiRequest.caller(ctx).name();
    String source = ApiRequest.source(ctx);
    String action = install ? "update.plugin.install.request" : "update.plugin.remove.request";
    if (bundle == null || !BUNDLE.matcher(bundle).matches()) {
      throw ApiProblem.invalidParameter("bundle", "'" + bundle + "' is no bundle symbolic name");
    }
    try {
      UpdateService.Job j =
          install
              ? updates.installPlugin(bundle, by, source)
              : updates.removePlugin(bundle, by, source);
      audit.append(new AuditEvent(by, source, action, bundle, AuditOutcome.SUCCESS, Map.of()));
      ApiRequest.json(ctx, 202, j.toJson());
    } catch (RuntimeException | IOException e) {
      audit.append(
          new AuditEvent(
              by,
              source,
              action,
              bundle,
              AuditOutcome.FAILURE,
              Map.of("error", updates.named(String.valueOf(e.getMessage())))));
      if (e instanceof NoSuchElementException) {
        throw ApiProblem.notFound(updates.named(e.getMessage()));
      } else if (e instanceof IllegalArgumentException) {
        throw ApiProblem.conflict(updates.named(e.getMessage()));
      } else if (e instanceof IllegalStateException) {
        throw ApiProblem.conflict(updates.named(e.getMessage()));
      } else if (e instanceof IOException) {
        throw ApiProblem.unavailable(
            "the update state cannot be read: " + updates.named(e.getMessage()));
      }
      throw (RuntimeException) e;
    }
  }

  private void requested(
      String by,
      String source,
      String what,
      boolean downgrade,
      AuditOutcome outcome,
      String error) {
    audit.append(
        new AuditEvent(
            by,
            source,
            "update.request",
            what,
            outcome,
            error.isEmpty()
                ? Map.of("allowDowngrade", Boolean.toString(downgrade))
                : Map.of("allowDowngrade", Boolean.toString(downgrade), "error", error)));
  }
}
