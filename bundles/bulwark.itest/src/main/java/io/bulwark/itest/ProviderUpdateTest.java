package io.bulwark.itest;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.audit.AuditLog;
import io.bulwark.api.fleet.FleetRepository;
import io.bulwark.api.health.HealthService;
import io.bulwark.api.security.Accounts;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.Session;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.junit5.context.BundleContextExtension;

/**
 * Updating a plugin never drops the appliance: while a client keeps calling the API with a browser
 * session and with an API token, the audit bundle, the detector bundle and the store bundle are
 * updated in turn. No request is refused but those of the routes that need the bundle being
 * updated, which answer 503 with a problem (never 500, never 401), and the session survives every
 * update.
 */
@ExtendWith(BundleContextExtension.class)
class ProviderUpdateTest {
  private static final String PASSWORD = "Hot-Swap-Keeps-Me-7!";

  @InjectBundleContext BundleContext context;

  /** One answer the client got: in which phase, to what, with which status. */
  private record Answer(String phase, String path, int status, String body) {}

  @Test
  void updatingTheAuditTheDetectorAndTheStoreBundlesDropsNoSessionAndNoOtherRoute()
      throws Exception {
    int port = WebPort.configure(context);
    HttpClient http = AdminHttps.client(context);
    String token = AdminHttps.adminToken(context);
    String cookie = "bulwark_session=" + session().id();
    AtomicReference<String> phase = new AtomicReference<>("before");
    List<Answer> answers = new CopyOnWriteArrayList<>();
    AtomicBoolean running = new AtomicBoolean(true);
    Thread client =
        new Thread(
            () -> {
              while (running.get()) {
                for (String path :
                    List.of(
                        "/api/v1/session", "/api/v1/health", "/api/v1/nodes", "/api/v1/audit")) {
                  String current = phase.get();
                  boolean bySession = path.equals("/api/v1/session");
                  answers.add(call(http, port, path, bySession ? cookie : null, token, current));
                }
                sleep(10);
              }
            },
            "itest-api-client");
    client.start();
    await(() -> answers.size() > 20, "the client is calling");

    phase.set("audit");
    update("bulwark.audit");
    await(() -> calls(answers, "audit") >= 8, "calls while the audit bundle restarts");
    await(() -> service(AuditLog.class), "the audit log is back");
    await(() -> lastStatus(answers, "/api/v1/audit") == 200, "the audit routes are back");

    phase.set("dcgm");
    update("bulwark.health.dcgm");
    await(() -> calls(answers, "dcgm") >= 8, "calls while the detector bundle restarts");
    await(() -> detectors() >= 15, "the detectors are back");

    phase.set("store");
    update("bulwark.store");
    await(() -> calls(answers, "store") >= 8, "calls while the store restarts");
    await(() -> service(FleetRepository.class), "the store is back");
    await(() -> lastStatus(answers, "/api/v1/nodes") == 200, "the fleet routes are back");

    phase.set("after");
    int seen = answers.size();
    await(() -> answers.size() > seen + 20, "calls after the updates");
    running.set(false);
    client.join(10_000);

    List<Answer> refused = new ArrayList<>();
    for (Answer a : answers) {
      boolean allowed =
          a.status() == 200
              || (a.status() == 503
                  && a.body().contains("\"status\":503")
                  && ((a.phase().equals("audit") && a.path().equals("/api/v1/audit"))
                      || (a.phase().equals("store") && a.path().equals("/api/v1/nodes"))));
      if (!allowed) {
        refused.add(a);
      }
    }
    assertThat(refused).as("answers other than 200 or the swapped routes' 503").isEmpty();
    assertThat(answers.stream().filter(a -> a.path().equals("/api/v1/session")))
        .as("the session survives every update")
        .allMatch(a -> a.status() == 200 && a.body().contains("\"kind\":\"session\""));
    assertThat(answers.stream().filter(a -> a.phase().equals("after")))
        .allMatch(a -> a.status() == 200);
    long swapped503 = answers.stream().filter(a -> a.status() == 503).count();
    System.out.printf(
        "provider updates: %d calls (%d during the audit, %d the detector, %d the store update), %d"
            + " answered 503 by the routes of the bundle being updated%n",
        answers.size(),
        calls(answers, "audit"),
        calls(answers, "dcgm"),
        calls(answers, "store"),
        swapped503);
  }

  /** Makes a user with a password of its own and logs it in, as a browser would. */
  private Session session() {
    Accounts accounts = context.getService(context.getServiceReference(Accounts.class));
    String name = "sam" + (System.nanoTime() % 100_000);
    char[] initial = "Initial-Pass-Word-3!".toCharArray();
    accounts.createUser("itest", name, Role.ADMIN, initial, "local");
    accounts.changePassword(name, initial, PASSWORD.toCharArray(), "local");
    return accounts.login(name, PASSWORD.toCharArray(), "local");
  }

  private static Answer call(
      HttpClient http, int port, String path, String cookie, String token, String phase) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(10));
    if (cookie != null) {
      b.header("Cookie", cookie);
    } else {
      b.header("Authorization", "Bearer " + token);
    }
    try {
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      String body = r.body();
      return new Answer(
          phase, path, r.statusCode(), body.substring(0, Math.min(400, body.length())));
    } catch (Exception e) {
      return new Answer(phase, path, -1, e.toString());
    }
  }

  private void update(String symbolicName) throws Exception {
    Bundle bundle =
        Arrays.stream(context.getBundles())
            .filter(b -> symbolicName.equals(b.getSymbolicName()))
            .findFirst()
            .orElseThrow(
                () ->
                    new AssertionError(
                        "no bundle "
                            + symbolicName
                            + " among "
                            + Arrays.stream(context.getBundles())
                                .map(b -> b.getSymbolicName() + "@" + b.getLocation())
                                .toList()));
    // The bundle's own jar, read again: an update as a signed package would bring it.
    bundle.update(new java.io.ByteArrayInputStream(HotSwapTest.read(bundle)));
    assertThat(bundle.getState()).isEqualTo(Bundle.ACTIVE);
  }

  private boolean service(Class<?> type) {
    return context.getServiceReference(type) != null;
  }

  private int detectors() {
    var ref = context.getServiceReference(HealthService.class);
    return ref == null ? 0 : context.getService(ref).detectors().size();
  }

  private static long calls(List<Answer> answers, String phase) {
    return answers.stream().filter(a -> a.phase().equals(phase)).count();
  }

  private static int lastStatus(List<Answer> answers, String path) {
    for (int i = answers.size() - 1; i >= 0; i--) {
      if (answers.get(i).path().equals(path)) {
        return answers.get(i).status();
      }
    }
    return 0;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 30_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(100);
    }
  }
}
