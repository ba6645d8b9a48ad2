package io.bulwark.scheduler.kubernetes.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import io.bulwark.api.scheduler.SchedulerState;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The connector against fabric8's mock Kubernetes API server (kubernetes-server-mock, see {@link
 * MockApiServer}), because no real API server can run on the build machines: nodes and pods live in
 * the mock's CRUD store and are read back with a second, independent client, while the Eviction
 * subresource, which the CRUD store does not implement, answers from expectations the way a real
 * API server does (201 for an allowed eviction, 429 when a PodDisruptionBudget refuses it). What a
 * real cluster does on its own (an evicted pod terminating and going away, refusing a request RBAC
 * does not allow) is played by the tests themselves.
 */
class KubernetesConnectorTest {
  private static final String POOL_LABEL = "node.kubernetes.io/pool";

  private MockApiServer api;
  private KubernetesMockServer server;
  private KubernetesClient cluster;
  private KubernetesConnector connector;

  @BeforeEach
  void connect() {
    api = new MockApiServer();
    server = api.server();
    cluster = api.client();
    connector = new KubernetesConnector(options(api.url(), Duration.ofSeconds(5)));
  }

  @AfterEach
  void close() {
    connector.close();
    api.close();
  }

  @Test
  void drainCordonsAndTaintsTheNodeWhereKubectlShowsIt() throws Exception {
    node("gpu-a07", "True");

    connector.drain("gpu-a07", "xid-79: GPU has fallen off the bus");

    Node stored = cluster.nodes().withName("gpu-a07").get();
    assertThat(stored.getSpec().getUnschedulable()).isTrue();
    assertThat(stored.getSpec().getTaints())
        .extracting(Taint::getKey, Taint::getValue, Taint::getEffect)
        .containsExactly(tuple("bulwark.io/unhealthy", "xid-79", "NoSchedule"));
    assertThat(stored.getMetadata().getAnnotations())
        .containsEntry("bulwark.io/reason", "xid-79: GPU has fallen off the bus");
    SchedulerNode read = connector.node("gpu-a07").orElseThrow();
    assertThat(read.state()).isEqualTo(SchedulerState.DRAINED);
    assertThat(read.schedulerState()).isEqualTo("Ready,SchedulingDisabled");
    assertThat(read.reason()).isEqualTo("xid-79: GPU has fallen off the bus");
  }

  @Test
  void drainingTwiceWritesNothingAndLeavesOneTaintBesideTheClustersOwn() throws Exception {
    Taint gpuOperator =
        new TaintBuilder()
            .withKey("nvidia.com/gpu")
            .withValue("present")
            .withEffect("NoSchedule")
            .build();
    cluster
        .resource(
            new NodeBuilder(readyNode("gpu-a08", "True"))
                .editSpec()
                .withTaints(gpuOperator)
                .endSpec()
                .build())
        .create();
    connector.drain("gpu-a08", "thermal throttling on GPU 3");
    int before = server.getRequestCount();

    connector.drain("gpu-a08", "thermal throttling on GPU 3");

    List<RecordedRequest> second = requestsSince(before);
    assertThat(second).extracting(RecordedRequest::getMethod).containsOnly("GET");
    Node stored = cluster.nodes().withName("gpu-a08").get();
    assertThat(stored.getSpec().getTaints())
        .extracting(Taint::getKey, Taint::getValue)
        .containsExactlyInAnyOrder(
            tuple("nvidia.com/gpu", "present"), tuple("bulwark.io/unhealthy", "thermal"));
  }

  @Test
  void aLaterDrainRecordsItsOwnKindInTheSameTaint() throws Exception {
    node("gpu-a09", "True");
    connector.drain("gpu-a09", "ecc-uncorrectable on GPU 0");

    connector.drain("gpu-a09", "NVLink/down: link 4 lost");

    Node stored = cluster.nodes().withName("gpu-a09").get();
    assertThat(stored.getSpec().getTaints())
        .extracting(Taint::getKey, Taint::getValue)
        .containsExactly(tuple("bulwark.io/unhealthy", "NVLink-down"));
    assertThat(DrainMark.reason(stored)).isEqualTo("NVLink/down: link 4 lost");
  }

  @Test
  void evictionHeldBackByADisruptionBudgetReturnsFalseAndForcesNothing() throws Exception {
    node("gpu-b01", "True");
    pod("ml", "trainer-0", "gpu-b01");
    pod("ml", "notebook-3", "gpu-b01");
    refuseEviction("ml", "trainer-0");
    allowEviction("ml", "notebook-3");
    connector.drain("gpu-b01", "xid-48: double-bit ECC error");
    int before = server.getRequestCount();

    boolean done = connector.evict("gpu-b01");

    assertThat(done).isFalse();
    List<RecordedRequest> requests = requestsSince(before);
    assertThat(evictionsIn(requests))
        .containsExactlyInAnyOrder(
            "/api/v1/namespaces/ml/pods/trainer-0/eviction",
            "/api/v1/namespaces/ml/pods/notebook-3/eviction");
    assertThat(requests).extracting(RecordedRequest::getMethod).doesNotContain("DELETE");
    assertThat(cluster.pods().inNamespace("ml").withName("trainer-0").get()).isNotNull();
    assertThat(connector.node("gpu-b01").orElseThrow().state()).isEqualTo(SchedulerState.DRAINING);
  }

  @Test
  void evictionSkipsDaemonSetAndMirrorPodsAndReturnsTrueWhenEveryOtherIsAccepted()
      throws Exception {
    node("gpu-b02", "True");
    pod("ml", "trainer-1", "gpu-b02");
    daemonPod("gpu-operator", "nvidia-dcgm-exporter-x7k2p", "gpu-b02");
    mirrorPod("kube-system", "kube-proxy-gpu-b02", "gpu-b02");
    allowEviction("ml", "trainer-1");
    connector.drain("gpu-b02", "xid-79");
    int before = server.getRequestCount();

    boolean done = connector.evict("gpu-b02");

    assertThat(done).isTrue();
    assertThat(evictionsIn(requestsSince(before)))
        .containsExactly("/api/v1/namespaces/ml/pods/trainer-1/eviction");
  }

  @Test
  void evictionOfANodeThatIsNotCordonedIsRefused() throws Exception {
    node("gpu-b03", "True");
    pod("ml", "trainer-2", "gpu-b03");
    int before = server.getRequestCount();

    assertThatThrownBy(() -> connector.evict("gpu-b03"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("gpu-b03")
        .hasMessageContaining("not cordoned")
        .hasMessageContaining("drain it first");
    assertThat(evictionsIn(requestsSince(before))).isEmpty();
  }

  @Test
  void aNodeReadsDrainingWhileItsWorkRunsAndDrainedOnceItHasLeft() throws Exception {
    node("gpu-c01", "True");
    pod("ml", "trainer-3", "gpu-c01");
    daemonPod("gpu-operator", "nvidia-device-plugin-9qz", "gpu-c01");
    pod("ml", "elsewhere", "gpu-c02");
    connector.drain("gpu-c01", "xid-79");

    SchedulerNode draining = connector.node("gpu-c01").orElseThrow();
    assertThat(draining.state()).isEqualTo(SchedulerState.DRAINING);
    assertThat(draining.jobs()).containsExactly("ml/trainer-3");

    // What the API server does once the evicted pod has terminated.
    cluster.pods().inNamespace("ml").withName("trainer-3").delete();

    SchedulerNode drained = connector.node("gpu-c01").orElseThrow();
    assertThat(drained.state()).isEqualTo(SchedulerState.DRAINED);
    assertThat(drained.jobs()).isEmpty();
  }

  @Test
  void resumeUncordonsAndRemovesOnlyBulwarksTaintAndIsIdempotent() throws Exception {
    Taint gpuOperator =
        new TaintBuilder()
            .withKey("nvidia.com/gpu")
            .withValue("present")
            .withEffect("NoSchedule")
            .build();
    cluster
        .resource(
            new NodeBuilder(readyNode("gpu-d01", "True"))
                .editSpec()
                .withTaints(gpuOperator)
                .endSpec()
                .build())
        .create();
    connector.drain("gpu-d01", "xid-79");

    connector.resume("gpu-d01", "passed burn-in after reset");

    Node stored = cluster.nodes().withName("gpu-d01").get();
    assertThat(stored.getSpec().getUnschedulable()).isNotEqualTo(Boolean.TRUE);
    assertThat(stored.getSpec().getTaints())
        .extracting(Taint::getKey)
        .containsExactly("nvidia.com/gpu");
    assertThat(stored.getMetadata().getAnnotations()).doesNotContainKey("bulwark.io/reason");
    assertThat(connector.node("gpu-d01").orElseThrow().state()).isEqualTo(SchedulerState.AVAILABLE);

    int before = server.getRequestCount();
    connector.resume("gpu-d01", "passed burn-in after reset");
    assertThat(requestsSince(before)).extracting(RecordedRequest::getMethod).containsOnly("GET");
  }

  @Test
  void nodesReadStatePoolsAndJobsAsTheClusterReportsThem() throws Exception {
    node("gpu-e01", "True");
    node("gpu-e02", "False");
    node("gpu-e03", "Unknown");
    pod("ml", "trainer-4", "gpu-e01");
    daemonPod("gpu-operator", "nvidia-dcgm-exporter-e01", "gpu-e01");
    finishedPod("ml", "preflight-e01", "gpu-e01");

    Map<String, SchedulerNode> nodes = new HashMap<>();
    for (SchedulerNode n : connector.nodes()) {
      nodes.put(n.name(), n);
    }

    assertThat(nodes).containsOnlyKeys("gpu-e01", "gpu-e02", "gpu-e03");
    assertThat(nodes.get("gpu-e01").state()).isEqualTo(SchedulerState.AVAILABLE);
    assertThat(nodes.get("gpu-e01").schedulerState()).isEqualTo("Ready");
    assertThat(nodes.get("gpu-e01").pools()).containsExactly("h100-training");
    assertThat(nodes.get("gpu-e01").jobs()).containsExactly("ml/trainer-4");
    assertThat(nodes.get("gpu-e02").state()).isEqualTo(SchedulerState.DOWN);
    assertThat(nodes.get("gpu-e02").schedulerState()).isEqualTo("NotReady");
    assertThat(nodes.get("gpu-e03").state()).isEqualTo(SchedulerState.DOWN);
  }

  @Test
  void aNotReadyNodeReadsDownEvenWhenCordoned() throws Exception {
    node("gpu-e04", "False");
    connector.drain("gpu-e04", "unreachable");

    SchedulerNode read = connector.node("gpu-e04").orElseThrow();

    assertThat(read.state()).isEqualTo(SchedulerState.DOWN);
    assertThat(read.schedulerState()).isEqualTo("NotReady,SchedulingDisabled");
  }

  @Test
  void anUnknownNodeIsEmptyToReadAndAnErrorToDrain() {
    assertThat(connectorNode("gpu-zz")).isEmpty();

    assertThatThrownBy(() -> connector.drain("gpu-zz", "xid-79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("Kubernetes cluster test")
        .hasMessageContaining("no node named gpu-zz")
        .hasMessageContaining("host name");
  }

  @Test
  void aForbiddenRequestNamesTheRightsToGrant() {
    server
        .expect()
        .get()
        .withPath("/api/v1/nodes/gpu-f01")
        .andReturn(
            403,
            status(
                403,
                "Forbidden",
                "nodes \"gpu-f01\" is forbidden: User \"system:serviceaccount:ops:bulwark\" cannot get resource \"nodes\""))
        .always();

    assertThatThrownBy(() -> connector.drain("gpu-f01", "xid-79"))
        .isInstanceOf(SchedulerException.class)
        .hasMessageContaining("Kubernetes cluster test")
        .hasMessageContaining("gpu-f01")
        .hasMessageContaining("403")
        .hasMessageContaining("cannot get resource")
        .hasMessageContaining("create on pods/eviction");
  }

  private Optional<SchedulerNode> connectorNode(String name) {
    try {
      return connector.node(name);
    } catch (SchedulerException e) {
      throw new AssertionError(e);
    }
  }

  static ClusterOptions options(String url, Duration timeout) {
    return new ClusterOptions(
        "test", url, Optional.empty(), Optional.empty(), Optional.empty(), POOL_LABEL, timeout);
  }

  private void node(String name, String ready) {
    cluster.resource(readyNode(name, ready)).create();
  }

  private static Node readyNode(String name, String ready) {
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .addToLabels(POOL_LABEL, "h100-training")
        .endMetadata()
        .withNewSpec()
        .endSpec()
        .withNewStatus()
        .addNewCondition()
        .withType("Ready")
        .withStatus(ready)
        .endCondition()
        .endStatus()
        .build();
  }

  private void pod(String namespace, String name, String node) {
    cluster.resource(podOn(namespace, name, node).build()).create();
  }

  private void daemonPod(String namespace, String name, String node) {
    cluster
        .resource(
            podOn(namespace, name, node)
                .editMetadata()
                .addNewOwnerReference()
                .withApiVersion("apps/v1")
                .withKind("DaemonSet")
                .withName(name.replaceAll("-[^-]+$", ""))
                .withUid("0b1d5e52-0000-4000-8000-000000000001")
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .build())
        .create();
  }

  private void mirrorPod(String namespace, String name, String node) {
    cluster
        .resource(
            podOn(namespace, name, node)
                .editMetadata()
                .addToAnnotations(Workload.MIRROR_ANNOTATION, "5c8e4d6f")
                .endMetadata()
                .build())
        .create();
  }

  private void finishedPod(String namespace, String name, String node) {
    cluster
        .resource(
            podOn(namespace, name, node).withNewStatus().withPhase("Succeeded").endStatus().build())
        .create();
  }

  private static PodBuilder podOn(String namespace, String name, String node) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .addNewContainer()
        .withName("main")
        .withImage("registry.local/ml/trainer:1")
        .endContainer()
        .endSpec()
        .withNewStatus()
        .withPhase("Running")
        .endStatus();
  }

  private void allowEviction(String namespace, String pod) {
    server
        .expect()
        .post()
        .withPath("/api/v1/namespaces/" + namespace + "/pods/" + pod + "/eviction")
        .andReturn(201, status(201, "Success", ""))
        .always();
  }

  private void refuseEviction(String namespace, String pod) {
    server
        .expect()
        .post()
        .withPath("/api/v1/namespaces/" + namespace + "/pods/" + pod + "/eviction")
        .andReturn(
            429,
            status(
                429,
                "TooManyRequests",
                "Cannot evict pod as it would violate the pod's disruption budget."))
        .always();
  }

  private static Status status(int code, String reason, String message) {
    return new StatusBuilder()
        .withStatus(code < 400 ? "Success" : "Failure")
        .withCode(code)
        .withReason(reason)
        .withMessage(message)
        .build();
  }

  private List<RecordedRequest> requestsSince(int count) throws InterruptedException {
    // The mock keeps every request in order; skip the ones that came before.
    List<RecordedRequest> all = new ArrayList<>();
    RecordedRequest request;
    while ((request = server.takeRequest(200, TimeUnit.MILLISECONDS)) != null) {
      all.add(request);
    }
    int total = server.getRequestCount();
    int skip = Math.max(0, all.size() - (total - count));
    return all.subList(skip, all.size());
  }

  private static List<String> evictionsIn(List<RecordedRequest> requests) {
    return requests.stream()
        .filter(r -> r.getMethod().equals("POST") && r.getPath().endsWith("/eviction"))
        .map(RecordedRequest::getPath)
        .toList();
  }
}
