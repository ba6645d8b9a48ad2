package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.EventSink;
import io.bulwark.web.api.EventTopic;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.RouteContributor;
import io.bulwark.web.api.UiPage;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What bundles contribute appears and disappears with them, without a restart of the admin plane: a
 * route (503 with a problem while its contributor is gone), a page (in the manifest for its roles
 * only, its files served from its own folder) and an event topic.
 */
class ContributionsTest {
  private final FleetFixture fixture = new FleetFixture();
  private Vertx vertx;
  private WebServer server;
  private ApiClient admin;
  private ApiClient operator;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    server = fixture.start(vertx);
    admin = new ApiClient(server.port());
    operator = new ApiClient(server.port(), "operator-token");
  }

  @AfterEach
  void stop() {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void aRouteComesAndGoesWithItsContributorAndAnswers503WhileItIsGone() {
    RouteContributor racks =
        new TestRoutes(
            "racks",
            List.of(
                ApiRoute.get(
                    "/api/v1/racks",
                    ApiRoute.ANY_ROLE,
                    ctx -> ApiRequest.json(ctx, new JsonObject().put("racks", 12)))));
    assertThat(admin.get("/api/v1/racks").statusCode()).isEqualTo(404);

    fixture.contributions.addRoutes(racks);
    assertThat(admin.json("/api/v1/racks").getInteger("racks")).isEqualTo(12);
    assertThat(server.routeTable())
        .anySatisfy(r -> assertThat(r.owner() + " " + r.path()).isEqualTo("racks /api/v1/racks"));

    fixture.contributions.removeRoutes(racks);
    HttpResponse<String> gone = admin.get("/api/v1/racks");
    assertThat(gone.statusCode()).isEqualTo(503);
    assertThat(gone.headers().firstValue("Content-Type")).contains(ProblemResponses.CONTENT_TYPE);
    assertThat(new JsonObject(gone.body()).getString("detail"))
        .startsWith("the racks routes are not available now");
    assertThat(admin.get("/api/v1/nodes").statusCode()).as("the others").isEqualTo(200);

    fixture.contributions.addRoutes(racks);
    assertThat(admin.get("/api/v1/racks").statusCode()).isEqualTo(200);
  }

  @Test
  void theAuditRoutesGoWithTheAuditBundleAndTheRestKeepsServing() {
    fixture.contributions.removeRoutes(fixture.auditRoutes);
    assertThat(admin.get("/api/v1/audit").statusCode()).isEqualTo(503);
    assertThat(admin.get("/api/v1/health").statusCode()).isEqualTo(200);
    assertThat(admin.get("/api/v1/session").statusCode()).isEqualTo(200);
    fixture.contributions.addRoutes(fixture.auditRoutes);
    assertThat(admin.get("/api/v1/audit").statusCode()).isEqualTo(200);
  }

  @Test
  void aPageIsListedForItsRolesAndServedFromItsOwnFolder(@TempDir Path folder) throws Exception {
    Files.writeString(folder.resolve("racks.js"), "export function mount() { return {}; }\n");
    PageContributor pages =
        new PageContributor() {
          @Override
          public String resourceRoot() {
            return "/ui";
          }

          @Override
          public List<UiPage> pages() {
            return List.of(new UiPage("racks", "Racks", "racks.js", Set.of(Role.ADMIN), 50, true));
          }
        };
    fixture.contributions.addPages(
        pages,
        "/ui/bulwark.racks/",
        name -> {
          try {
            Path file = folder.resolve(name);
            return Files.exists(file) ? file.toUri().toURL() : null;
          } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException(e);
          }
        });

    assertThat(admin.json("/api/v1/ui/pages").getJsonArray("pages").encode())
        .contains("\"id\":\"racks\"")
        .contains("\"module\":\"/ui/bulwark.racks/racks.js\"");
    assertThat(operator.json("/api/v1/ui/pages").getJsonArray("pages").encode())
        .doesNotContain("racks");
    HttpResponse<String> module = admin.get("/ui/bulwark.racks/racks.js");
    assertThat(module.statusCode()).isEqualTo(200);
    assertThat(module.headers().firstValue("Content-Type"))
        .contains("text/javascript; charset=utf-8");
    assertThat(admin.get("/ui/bulwark.racks/../racks.js").statusCode()).isEqualTo(404);

    fixture.contributions.removePages(pages);
    assertThat(admin.json("/api/v1/ui/pages").getJsonArray("pages").encode())
        .doesNotContain("racks");
    assertThat(admin.get("/ui/bulwark.racks/racks.js").statusCode()).isEqualTo(404);
  }

  @Test
  void anEventTopicReachesTheClientsOfItsRolesWhileItIsThere() throws Exception {
    TestTopic topic = new TestTopic();
    fixture.contributions.addTopic(topic);
    assertThat(admin.json("/api/v1/ui/pages").getJsonArray("topics").getList())
        .contains("rack-power");
    assertThat(operator.json("/api/v1/ui/pages").getJsonArray("topics").getList())
        .doesNotContain("rack-power");
    try (EventReader events = new EventReader(admin, true)) {
      assertThat(events.next("rack-power", Duration.ofSeconds(5)).data())
          .as("the snapshot on connect")
          .isEqualTo("{\"kw\":40}");
      topic.sink.publish("{\"kw\":41}");
      assertThat(events.next("rack-power", Duration.ofSeconds(5)).data()).isEqualTo("{\"kw\":41}");
    }
    fixture.contributions.removeTopic(topic);
    assertThat(topic.sink).as("closed").isNull();
    assertThat(admin.json("/api/v1/ui/pages").getJsonArray("topics").getList())
        .doesNotContain("rack-power");
  }

  private record TestRoutes(String name, List<ApiRoute> routes) implements RouteContributor {}

  private static final class TestTopic implements EventTopic {
    volatile EventSink sink;

    @Override
    public String name() {
      return "rack-power";
    }

    @Override
    public Set<Role> roles() {
      return Set.of(Role.ADMIN);
    }

    @Override
    public void open(EventSink into) {
      sink = into;
    }

    @Override
    public void close() {
      sink = null;
    }

    @Override
    public String snapshot() {
      return "{\"kw\":40}";
    }
  }
}
