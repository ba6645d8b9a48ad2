package io.bulwark.scheduler.kubernetes.internal;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fabric8's mock API server in mixed mode (a CRUD store for nodes and pods, expectations for the
 * rest) with the one thing of a real API server the connector relies on and the store lacks:
 * listing pods with the field selector {@code spec.nodeName=<node>}. The store only indexes names
 * and namespaces, so that list is answered from the whole list, filtered here as the API server
 * filters it. A test fixture only.
 */
final class MockApiServer implements AutoCloseable {
  private static final Pattern NODE_SELECTOR =
      Pattern.compile("([?&])fieldSelector=spec\\.nodeName(?:%3D|=)([^&]*)");

  private final KubernetesMockServer server;
  private final NamespacedKubernetesClient client;

  /** Starts the mock over plain HTTP. */
  MockApiServer() {
    this(false);
  }

  /** Starts the mock, over HTTPS with a self-signed certificate if {@code https}. */
  MockApiServer(boolean https) {
    Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
    server =
        new KubernetesMockServer(
            new Context(Serialization.jsonMapper()),
            new MockWebServer(),
            expectations,
            new NodeFieldSelector(new KubernetesMixedDispatcher(expectations)),
            https);
    server.init();
    client = server.createClient();
  }

  /** Returns the mock itself, for expectations and the requests it received. */
  KubernetesMockServer server() {
    return server;
  }

  /** Returns a client of the mock's own, independent of the connector under test. */
  NamespacedKubernetesClient client() {
    return client;
  }

  /** Returns the PEM file of the self-signed certificate an HTTPS mock presents. */
  Path certificate() {
    return Path.of(server.getSelfSignedCertificate().certificatePath());
  }

  /** Returns the API server's URL. */
  String url() {
    return server.url("/");
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }

  private static final class NodeFieldSelector extends Dispatcher {
    private final Dispatcher store;

    NodeFieldSelector(Dispatcher store) {
      this.store = store;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getPath();
      Matcher selector = NODE_SELECTOR.matcher(path);
      if (!"GET".equals(request.getMethod()) || !path.contains("/pods?") || !selector.find()) {
        return store.dispatch(request);
      }
      String node = URLDecoder.decode(selector.group(2), StandardCharsets.UTF_8);
      String unfiltered = selector.replaceFirst(selector.group(1)).replace("?&", "?");
      if (unfiltered.endsWith("?")) {
        unfiltered = unfiltered.substring(0, unfiltered.length() - 1);
      }
      MockResponse all =
          store.dispatch(
              new RecordedRequest(
                  request.getHttpVersion(),
                  request.method(),
                  unfiltered,
                  request.getHeaders(),
                  request.getBody()));
      if (all.code() != 200) {
        return all;
      }
      PodList pods = Serialization.unmarshal(all.getBody().readUtf8(), PodList.class);
      pods.getItems().removeIf(pod -> !node.equals(nodeOf(pod)));
      return all.setBody(new Buffer(Serialization.asJson(pods).getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void shutdown() {
      store.shutdown();
    }

    private static String nodeOf(Pod pod) {
      return pod.getSpec() == null ? null : pod.getSpec().getNodeName();
    }
  }
}
