package io.bulwark.itest;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.security.Role;
import io.bulwark.web.api.ApiRequest;
import io.bulwark.web.api.ApiRoute;
import io.bulwark.web.api.EventSink;
import io.bulwark.web.api.EventTopic;
import io.bulwark.web.api.PageContributor;
import io.bulwark.web.api.RouteContributor;
import io.bulwark.web.api.UiPage;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.test.common.annotation.InjectBundleContext;
import org.osgi.test.junit5.context.BundleContextExtension;

/**
 * A bundle plugs into the admin plane by registering services, and unplugs by going: this test
 * bundle registers a route, a page (served from its own {@code /itest-ui} folder) and an event
 * topic; they appear in the API, the page manifest and the event stream's topics, and disappear
 * when the services go (the route then answers 503), with no restart of the web server.
 */
@ExtendWith(BundleContextExtension.class)
class ContributionTest {
  @InjectBundleContext BundleContext context;

  @Test
  void aRouteAPageAndATopicComeAndGoWithTheirBundlesServices() throws Exception {
    int port = WebPort.configure(context);
    HttpClient http = AdminHttps.client(context);
    String token = AdminHttps.adminToken(context);
    ServiceRegistration<RouteContributor> routes =
        context.registerService(
            RouteContributor.class,
            new RouteContributor() {
              @Override
              public String name() {
                return "racks";
              }

              @Override
              public List<ApiRoute> routes() {
                return List.of(
                    ApiRoute.get(
                        "/api/v1/racks",
                        Set.of(Role.ADMIN),
                        ctx -> ApiRequest.json(ctx, new JsonObject().put("racks", 3))));
              }
            },
            null);
    ServiceRegistration<PageContributor> pages =
        context.registerService(
            PageContributor.class,
            new PageContributor() {
              @Override
              public String resourceRoot() {
                return "/itest-ui";
              }

              @Override
              public List<UiPage> pages() {
                return List.of(
                    new UiPage("racks", "Racks", "racks.js", Set.of(Role.ADMIN), 60, true));
              }
            },
            null);
    ServiceRegistration<EventTopic> topic =
        context.registerService(
            EventTopic.class,
            new EventTopic() {
              @Override
              public String name() {
                return "rack-power";
              }

              @Override
              public Set<Role> roles() {
                return Set.of(Role.ADMIN);
              }

              @Override
              public void open(EventSink sink) {}

              @Override
              public void close() {}
            },
            null);

    HotSwapTest.await(
        () -> get(http, port, token, "/api/v1/racks").statusCode() == 200, "the route");
    JsonObject manifest = new JsonObject(get(http, port, token, "/api/v1/ui/pages").body());
    assertThat(manifest.getJsonArray("pages").encode())
        .contains("\"module\":\"/ui/bulwark.itest/racks.js\"");
    assertThat(manifest.getJsonArray("topics").getList()).contains("rack-power");
    HttpResponse<String> module = get(http, port, token, "/ui/bulwark.itest/racks.js");
    assertThat(module.statusCode()).isEqualTo(200);
    assertThat(module.body()).contains("export function mount");

    routes.unregister();
    pages.unregister();
    topic.unregister();

    HotSwapTest.await(
        () -> get(http, port, token, "/api/v1/racks").statusCode() == 503, "the route answers 503");
    JsonObject after = new JsonObject(get(http, port, token, "/api/v1/ui/pages").body());
    assertThat(after.getJsonArray("pages").encode()).doesNotContain("racks");
    assertThat(after.getJsonArray("topics").getList()).doesNotContain("rack-power");
    assertThat(get(http, port, token, "/ui/bulwark.itest/racks.js").statusCode()).isEqualTo(404);
    assertThat(get(http, port, token, "/api/v1/health").statusCode()).isEqualTo(200);
  }

  private static HttpResponse<String> get(HttpClient http, int port, String token, String path) {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + path))
              .timeout(Duration.ofSeconds(10))
              .header("Authorization", "Bearer " + token)
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
