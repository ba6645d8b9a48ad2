package io.bulwark.scheduler.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerState;
import io.bulwark.testing.FipsProviders;
import io.bulwark.testing.receivers.TestCertificates;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector's TLS as on the appliance: BCFIPS first and BCJSSE in FIPS mode second among the
 * providers, approved-only mode on, the API server trusted through {@code caCertFile}. The API
 * server is a small HTTPS server of the JDK's own (no real one can run on the build machines, and
 * fabric8's mock server brings the non-FIPS BouncyCastle, which must not share a class path with
 * the FIPS module: this class runs in a Surefire execution of its own, without the mock). It
 * answers the two requests a node read makes. A server that offers only ChaCha20, which the FIPS
 * provider never negotiates, shows that the handshake is BCJSSE's and not the JDK's.
 */
class FipsTlsTest {
  private static final String NODE =
      """
      {"apiVersion":"v1","kind":"Node","metadata":{"name":"gpu-a01"},"spec":{},
       "status":{"conditions":[{"type":"Ready","status":"True"}]}}""";
  private static final String NO_PODS =
      """
      {"apiVersion":"v1","kind":"PodList","metadata":{},"items":[]}""";

  @TempDir static Path certs;
  @TempDir Path dir;
  private static TestCertificates tls;
  private static TestCertificates otherCa;
  private HttpsServer server;
  private final List<String> authorizations = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void providers() {
    FipsProviders.install();
    tls = TestCertificates.create(certs.resolve("cluster"));
    otherCa = TestCertificates.create(certs.resolve("other"));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void theNodeIsReadOverTlsNegotiatedByTheFipsProvider() throws Exception {
    assertThat(Boolean.getBoolean("org.bouncycastle.fips.approved_only")).isTrue();
    assertThat(SSLContext.getInstance("TLS").getProvider().getName()).isEqualTo("BCJSSE");
    String url = serve(null);
    Path token = Files.writeString(dir.resolve("token"), "fips-token-0c4d");
    KubernetesConnector connector = new KubernetesConnector(options(url, token, tls.caPem()));
    try {
      assertThat(connector.node("gpu-a01"))
          .hasValueSatisfying(n -> assertThat(n.state()).isEqualTo(SchedulerState.AVAILABLE));
      assertThat(authorizations).contains("Bearer fips-token-0c4d");
    } finally {
      connector.close();
    }
  }

  @Test
  void aServerCertificateFromAnotherCaIsRefused() throws Exception {
    String url = serve(null);
    KubernetesConnector connector = new KubernetesConnector(options(url, null, otherCa.caPem()));
    try {
      assertThatThrownBy(() -> connector.node("gpu-a01"))
          .isInstanceOf(SchedulerException.class)
          .hasMessageContaining("TLS handshake with " + url + " failed")
          .hasMessageContaining("caCertFile");
      assertThat(authorizations).isEmpty();
    } finally {
      connector.close();
    }
  }

  @Test
  void aServerOfferingOnlyChaCha20IsRefusedAsTheFipsProviderRefusesIt() throws Exception {
    String url = serve("TLS_CHACHA20_POLY1305_SHA256");
    KubernetesConnector connector = new KubernetesConnector(options(url, null, tls.caPem()));
    try {
      assertThatThrownBy(() -> connector.node("gpu-a01"))
          .isInstanceOf(SchedulerException.class)
          .hasMessageContaining("TLS handshake");
      assertThat(authorizations).isEmpty();
    } finally {
      connector.close();
    }
  }

  /** Starts the HTTPS API server, restricted to TLS 1.3 and {@code onlySuite} if given. */
  private String serve(String onlySuite) throws IOException {
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    SSLContext context = tls.serverSslContext();
    server.setHttpsConfigurator(
        new HttpsConfigurator(context) {
          @Override
          public void configure(HttpsParameters params) {
            var parameters = context.getDefaultSSLParameters();
            if (onlySuite != null) {
              parameters.setProtocols(new String[] {"TLSv1.3"});
              parameters.setCipherSuites(new String[] {onlySuite});
            }
            params.setSSLParameters(parameters);
          }
        });
    server.createContext("/", this::answer);
    server.start();
    return "https://127.0.0.1:" + server.getAddress().getPort() + "/";
  }

  private void answer(HttpExchange exchange) throws IOException {
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    authorizations.add(authorization == null ? "" : authorization);
    String path = exchange.getRequestURI().getPath();
    byte[] body =
        (path.equals("/api/v1/nodes/gpu-a01") ? NODE : NO_PODS).getBytes(StandardCharsets.UTF_8);
    if (!path.equals("/api/v1/nodes/gpu-a01") && !path.equals("/api/v1/pods")) {
      exchange.sendResponseHeaders(404, -1);
      exchange.close();
      return;
    }
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  private static ClusterOptions options(String url, Path token, Path ca) {
    return new ClusterOptions(
        "fips",
        url,
        Optional.empty(),
        Optional.ofNullable(token),
        Optional.of(ca),
        "node.kubernetes.io/pool",
        Duration.ofSeconds(5));
  }
}
