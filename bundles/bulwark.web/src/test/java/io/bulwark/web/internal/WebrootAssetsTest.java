package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.Router;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The UI's files as the admin plane serves them, and the class-loader reading that works inside a
 * bundle.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebrootAssetsTest {
  private static final Pattern IMPORT =
      Pattern.compile("(?m)^import .* from '(/js/[a-z-]+\\.js)';$");

  private final FleetFixture fixture = new FleetFixture();
  private Vertx vertx;
  private WebServer server;
  private ApiClient client;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    server = fixture.start(vertx, Listener.plainHttp(new WebOptions("127.0.0.1", 0)));
    client = new ApiClient(server.port());
  }

  @AfterAll
  void stop() {
    server.stop();
    vertx.close().toCompletionStage().toCompletableFuture().join();
  }

  @Test
  void indexIsServedAtTheRootAsHtml() {
    HttpResponse<String> response = client.get("/");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
    assertThat(response.body())
        .contains("<script type=\"module\" src=\"/js/app.js\"></script>", "id=\"view\"");
    assertThat(client.get("/index.html").body()).isEqualTo(response.body());
  }

  @Test
  void scriptsStylesAndIconHaveTheirTypes() {
    assertType("/js/app.js", "text/javascript; charset=utf-8");
    assertType("/css/bulwark.css", "text/css; charset=utf-8");
    assertType("/favicon.svg", "image/svg+xml");
  }

  @Test
  void everyModuleTheAppImportsIsServed() {
    Set<String> seen = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    todo.add("/js/app.js");
    JsonArray pages = client.json("/api/v1/ui/pages").getJsonArray("pages");
    for (int i = 0; i < pages.size(); i++) {
      todo.add(pages.getJsonObject(i).getString("module"));
    }
    while (!todo.isEmpty() && seen.size() < 50) {
      String module = todo.poll();
      if (!seen.add(module)) {
        continue;
      }
      HttpResponse<String> response = client.get(module);
      assertThat(response.statusCode()).as(module).isEqualTo(200);
      Matcher m = IMPORT.matcher(response.body());
      while (m.find()) {
        todo.add(m.group(1));
      }
    }
    assertThat(seen)
        .contains(
            "/js/app.js",
            "/js/api.js",
            "/js/dom.js",
            "/ui/bulwark.web/fleet.js",
            "/ui/bulwark.web/node.js",
            "/ui/bulwark.web/findings.js",
            "/js/chart.js",
            "/js/problems.js",
            "/ui/bulwark.web/users.js",
            "/ui/bulwark.web/tokens.js",
            "/ui/bulwark.web/tls.js",
            "/ui/bulwark.web/audit.js",
            "/js/signed.js",
            "/js/capacity.js");
  }

  @Test
  void theUiNeedsNothingAStrictContentSecurityPolicyForbids() {
    String index = client.get("/").body();
    assertThat(index).doesNotContainPattern("<script(?![^>]*\\ssrc=)[^>]*>");
    assertThat(index).doesNotContain("style=", "onclick", "http://", "https://");
    for (String module :
        new String[] {
          "app.js",
          "api.js",
          "dom.js",
          "fleet.js",
          "node.js",
          "findings.js",
          "findings-table.js",
          "chart.js",
          "format.js",
          "system.js",
          "problems.js",
          "users.js",
          "tokens.js",
          "tls.js",
          "audit.js",
          "signed.js",
          "capacity.js"
        }) {
      String js = client.get("/js/" + module).body().replace("'http://www.w3.org/2000/svg'", "");
      assertThat(js)
          .as(module)
          .doesNotContain(
              "innerHTML", "eval(", "new Function", "setAttribute('style'", "https://", "http://");
    }
    assertThat(client.get("/").headers().firstValue("Content-Security-Policy").orElse(""))
        .contains("default-src 'none'", "script-src 'self'");
  }

  @Test
  void unknownOrUnsafeNamesAre404() {
    WebApiTest.assertProblem(client.get("/js/nope.js"), 404, null);
    WebApiTest.assertProblem(client.get("/nope"), 404, null);
    WebApiTest.assertProblem(client.get("/js"), 404, null);
    WebApiTest.assertProblem(client.get("/.hidden.js"), 404, null);
    WebApiTest.assertProblem(client.get("/webroot/index.html"), 404, null);
    WebApiTest.assertProblem(client.get("/io/bulwark/web/internal/WebServer.class"), 404, null);
    assertThat(client.get("/js/%2e%2e/%2e%2e/META-INF/MANIFEST.MF").statusCode()).isEqualTo(404);
  }

  @Test
  void unchangedFilesAnswer304() {
    HttpResponse<String> first = client.get("/css/bulwark.css");
    String etag = first.headers().firstValue("ETag").orElseThrow();

    HttpResponse<String> again =
        client.send(
            HttpRequest.newBuilder(client.uri("/css/bulwark.css"))
                .header("If-None-Match", etag)
                .GET()
                .build());

    assertThat(again.statusCode()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
  }

  @Test
  void filesAreReadThroughTheClassLoaderFromAJar(@TempDir Path dir) throws Exception {
    Path jar = dir.resolve("ui.jar");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream zip = new JarOutputStream(out)) {
      zip.putNextEntry(new JarEntry("webroot/index.html"));
      zip.write("<p>from the jar</p>".getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      Router router = Router.router(vertx);
      router.get().handler(new WebrootAssets(loader));
      router.route().failureHandler(ProblemResponses::failure);
      HttpServer jarServer =
          vertx
              .createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
              .requestHandler(router)
              .listen()
              .toCompletionStage()
              .toCompletableFuture()
              .get();
      try {
        ApiClient jarClient = new ApiClient(jarServer.actualPort());
        assertThat(jarClient.get("/").body()).isEqualTo("<p>from the jar</p>");
        assertThat(jarClient.get("/js/app.js").statusCode()).isEqualTo(404);
      } finally {
        jarServer.close().toCompletionStage().toCompletableFuture().get();
      }
    }
  }

  private void assertType(String path, String type) {
    HttpResponse<String> response = client.get(path);
    assertThat(response.statusCode()).as(path).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).as(path).contains(type);
    assertThat(response.body()).as(path).isNotBlank();
  }
}
