package io.bulwark.provisioning.internal;

import io.bulwark.api.audit.AuditEvent;
import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.machine.Machine;
import io.bulwark.api.machine.MachineId;
import io.bulwark.api.machine.MachineRefusedException;
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
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * {@code GET /api/v1/machines/:machine/hardware}: what the boot environment last reported of a
 * machine (its inventory, and the hardware tests of its last commissioning or testing with their
 * exit status and output); {@code GET /api/v1/images}: the image store with each image's signature
 * status; {@code POST /api/v1/provisioning/machines/:machine/deploy} and {@code .../release}:
 * deployment with an image and user data, release with an erase mode, audited.
 */
@Component(service = RouteContributor.class)
public final class ProvisioningRoutes implements RouteContributor {
  private static final Set<Role> OPERATORS = EnumSet.of(Role.ADMIN, Role.OPERATOR);
  static final int MAX_USER_DATA = 64 * 1024;

  private final Provisioning provisioning;
  private final AuditLog audit;

  @Activate
  public ProvisioningRoutes(@Reference Provisioning provisioning, @Reference AuditLog audit) {
    this.provisioning = provisioning;
    this.audit = audit;
  }

  @Override
  public String name() {
    return "provisioning";
  }

  @Override
  public List<ApiRoute> routes() {
    return List.of(
        ApiRoute.get("/api/v1/machines/:machine/hardware", ApiRoute.ANY_ROLE, this::hardware),
        ApiRoute.get("/api/v1/images", ApiRoute.ANY_ROLE, this::images),
        ApiRoute.upload("/api/v1/images/:name", EnumSet.of(Role.ADMIN), this::upload),
        ApiRoute.get("/api/v1/provisioning/machines", ApiRoute.ANY_ROLE, this::machines),
        ApiRoute.post("/api/v1/provisioning/machines/:machine/deploy", OPERATORS, this::deploy),
        ApiRoute.post("/api/v1/provisioning/machines/:machine/release", OPERATORS, this::release),
        ApiRoute.post("/api/v1/provisioning/machines/:machine/test", OPERATORS, this::test),
        ApiRoute.get("/api/v1/machines/:machine/boot-log", ApiRoute.ANY_ROLE, this::bootLog));
  }

  /** Every machine the boot environment has reported, with its state and its last report. */
  private void machines(RoutingContext ctx) {
    JsonArray list = new JsonArray();
    for (HardwareRecord r : provisioning.reported()) {
      JsonObject inv = new JsonObject(r.inventory());
      JsonObject m =
          new JsonObject()
              .put("machine", r.machine())
              .put("state", provisioning.state(r.machine()))
              .put("reportedBy", r.purpose())
              .put("at", r.at().toString())
              .put("passed", r.passed())
              .put("summary", Inventory.summary(inv))
              .put("mac", inv.getString("mac", ""))
              .put("tests", new JsonArray(r.results()));
      provisioning
          .deployment(MachineId.of(r.machine()))
          .ifPresent(
              d ->
                  m.put(
                      "deployment",
                      new JsonObject()
                          .put("image", d.image())
                          .put("erase", d.erase())
                          .put("outcome", d.outcome())
                          .put("at", d.at().toString())));
      provisioning
          .bootLog(r.machine())
          .ifPresent(
              l ->
                  m.put(
                      "lastLog",
                      new JsonArray(
                          l.lines().subList(Math.max(0, l.lines().size() - 5), l.lines().size()))));
      list.add(m);
    }
    ApiRequest.json(ctx, new JsonObject().put("machines", list));
  }

  private void images(RoutingContext ctx) {
    JsonArray list = new JsonArray();
    try {
      for (ImageStore.Image i : provisioning.images().images()) {
        list.add(
            new JsonObject()
                .put("name", i.name())
                .put("size", i.size())
                .put("sha256", i.sha256())
                .put("deployable", i.trusted())
                .put("signer", i.signer())
                .put("problem", i.problem()));
      }
    } catch (IOException e) {
      throw ApiProblem.unavailable("the image store cannot be read: " + e.getMessage());
    }
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("folder", provisioning.images().folder().toString())
            .put("images", list));
  }

  /** The largest image taken (a whole-disk image of a GPU node's OS). */
  static final long MAX_IMAGE_BYTES = 64L << 30;

  /**
   * Adds an image: the body is the raw image, streamed into the store's incoming folder; the {@code
   * Bulwark-Signature} header its detached signature (base64). Only an image whose signature
   * verifies with a trusted key is kept.
   */
  private void upload(RoutingContext ctx) {
    String name = ctx.pathParam("name");
    String by = ApiRequest.caller(ctx).name();
    String source = ApiRequest.source(ctx);
    if (!ImageStore.NAME.matcher(name).matches()) {
      ctx.fail(
          ApiProblem.invalidParameter(
              "name",
              "'" + name + "' is no image name: lower-case letters, digits, '.', '_', '-'"));
      return;
    }
    byte[] signature;
    try {
      String header = ctx.request().getHeader("Bulwark-Signature");
      signature =
          header == null ? new byte[0] : java.util.Base64.getDecoder().decode(header.strip());
    } catch (IllegalArgumentException e) {
      signature = new byte[0];
    }
    if (signature.length == 0 || signature.length > 512) {
      ctx.fail(
          ApiProblem.invalidBody(
              "send the image's detached signature (openssl dgst -sha384 -sign), base64, in the"
                  + " Bulwark-Signature header"));
      return;
    }
    byte[] sig = signature;
    java.nio.file.Path incoming = provisioning.images().incoming();
    ctx.vertx()
        .executeBlocking(
            () -> {
              java.nio.file.Files.createDirectories(incoming);
              long free = java.nio.file.Files.getFileStore(incoming).getUsableSpace();
              String length = ctx.request().getHeader("Content-Length");
              if (length != null
                  && length.strip().matches("[0-9]{1,19}")
                  && Long.parseLong(length.strip()) > free - (1L << 30)) {
                throw ApiProblem.unavailable(
                    "the image store has "
                        + (free >> 20)
                        + " MiB free; the image ("
                        + (Long.parseLong(length.strip()) >> 20)
                        + " MiB) needs that and 1 GiB to spare");
              }
              return incoming.resolve(name + ".img." + Provisioning.seedToken().substring(0, 12));
            },
            false)
        .compose(file -> ApiUpload.receive(ctx, file, MAX_IMAGE_BYTES, 60))
        .compose(
            received ->
                ctx.vertx()
                    .executeBlocking(
                        () -> {
                          ImageStore.Image image =
                              provisioning.images().add(name, received.file(), sig);
                          audit.append(
                              imageAdded(
                                  by,
                                  source,
                                  name,
                                  AuditOutcome.SUCCESS,
                                  Map.of(
                                      "bytes", Long.toString(received.bytes()),
                                      "sha256", received.sha256(),
                                      "signer", image.signer())));
                          return image;
                        },
                        false))
        .onSuccess(
            image ->
                ApiRequest.json(
                    ctx,
                    201,
                    new JsonObject()
                        .put("name", image.name())
                        .put("size", image.size())
                        .put("sha256", image.sha256())
                        .put("deployable", image.trusted())
                        .put("signer", image.signer())))
        .onFailure(
            e -> {
              Throwable why =
                  e instanceof IllegalStateException
                      ? ApiProblem.conflict(e.getMessage())
                      : e instanceof IllegalArgumentException
                          ? ApiProblem.invalidBody(e.getMessage())
                          : e;
              ctx.vertx()
                  .executeBlocking(
                      () ->
                          audit.append(
                              imageAdded(
                                  by,
                                  source,
                                  name,
                                  AuditOutcome.FAILURE,
                                  Map.of("error", String.valueOf(why.getMessage())))),
                      false)
                  .onComplete(r -> ctx.fail(why));
            });
  }

  private static AuditEvent imageAdded(
      String by, String source, String name, AuditOutcome outcome, Map<String, String> details) {
    return new AuditEvent(by, source, "image.add", name, outcome, details);
  }

  private static MachineId id(RoutingContext ctx) {
    String id = ctx.pathParam("machine");
    if (!MachineId.isValid(id)) {
      throw ApiProblem.invalidParameter("machine", "'" + id + "' is not a machine id");
    }
    return MachineId.of(id);
  }

  private interface Work {
    Machine run(String by);
  }

  private void change(
      RoutingContext ctx, String action, MachineId id, Map<String, String> details, Work work) {
    String by = ApiRequest.caller(ctx).name();
    try {
      Machine m = work.run(by);
      audit.append(
          new AuditEvent(
              by, ApiRequest.source(ctx), action, id.value(), AuditOutcome.SUCCESS, details));
      ApiRequest.json(
          ctx, new JsonObject().put("machine", m.id().value()).put("state", m.state().apiName()));
    } catch (NoSuchElementException e) {
      throw ApiProblem.notFound(e.getMessage());
    } catch (IllegalArgumentException | MachineRefusedException e) {
      Map<String, String> d = new TreeMap<>(details);
      d.put("error", e.getMessage());
      audit.append(
          new AuditEvent(by, ApiRequest.source(ctx), action, id.value(), AuditOutcome.FAILURE, d));
      throw e instanceof MachineRefusedException
          ? ApiProblem.conflict(e.getMessage())
          : ApiProblem.invalidBody(e.getMessage());
    }
  }

  private void deploy(RoutingContext ctx) {
    MachineId id = id(ctx);
    JsonObject body = ApiRequest.body(ctx);
    String image = ApiRequest.text(body, "image", null);
    if (image == null || !ImageStore.NAME.matcher(image).matches()) {
      throw ApiProblem.invalidBody("'image' names an image of GET /api/v1/images");
    }
    String userData = ApiRequest.text(body, "userData", "");
    if (userData.length() > MAX_USER_DATA) {
      throw ApiProblem.invalidBody("'userData' is at most " + MAX_USER_DATA + " characters");
    }
    Map<String, String> details = new TreeMap<>();
    details.put("image", image);
    details.put("userDataBytes", Integer.toString(userData.length()));
    change(ctx, "machine.deploy", id, details, by -> provisioning.deploy(id, image, userData, by));
  }

  private void release(RoutingContext ctx) {
    MachineId id = id(ctx);
    String erase = ApiRequest.text(ApiRequest.body(ctx), "erase", "none");
    change(
        ctx,
        "machine.release",
        id,
        Map.of("erase", erase),
        by -> provisioning.release(id, erase, by));
  }

  /** Tests the machine again: {@code {"tests": [names or tags]}}, none for commissioning's. */
  private void test(RoutingContext ctx) {
    MachineId id = id(ctx);
    Object value = ApiRequest.body(ctx).getValue("tests");
    List<String> tests = new java.util.ArrayList<>();
    if (value != null) {
      if (!(value instanceof JsonArray a) || a.size() > 32) {
        throw ApiProblem.invalidBody("'tests' is a list of at most 32 test names or tags");
      }
      for (Object o : a) {
        String t = String.valueOf(o).strip();
        if (!TestChoice.WORD.matcher(t).matches()) {
          throw ApiProblem.invalidBody(
              "'" + t + "' is no test name or tag (lower-case letters, digits, '-' and '_')");
        }
        tests.add(t);
      }
    }
    change(
        ctx,
        "machine.test",
        id,
        Map.of("tests", String.join(",", tests)),
        by -> provisioning.test(id, tests, by));
  }

  /** The last lines the machine's boot environment logged in its latest boot. */
  private void bootLog(RoutingContext ctx) {
    MachineId id = id(ctx);
    BootLog l =
        provisioning
            .bootLog(id.value())
            .orElseThrow(
                () ->
                    ApiProblem.notFound(
                        "the boot environment of " + id.value() + " has logged nothing yet"));
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("machine", id.value())
            .put("boot", l.boot())
            .put("at", l.at().toString())
            .put("lines", new JsonArray(l.lines())));
  }

  private void hardware(RoutingContext ctx) {
    String id = ctx.pathParam("machine");
    if (!MachineId.isValid(id)) {
      throw ApiProblem.invalidParameter("machine", "'" + id + "' is not a machine id");
    }
    HardwareRecord r =
        provisioning
            .hardware(MachineId.of(id))
            .orElseThrow(
                () ->
                    ApiProblem.notFound(
                        "no boot environment has reported the hardware of "
                            + id
                            + " yet: enlist or commission it"));
    ApiRequest.json(
        ctx,
        new JsonObject()
            .put("machine", r.machine())
            .put("reportedBy", r.purpose())
            .put("at", r.at().toString())
            .put("passed", r.passed())
            .put("inventory", new JsonObject(r.inventory()))
            .put("tests", new JsonArray(r.results())));
  }
}
