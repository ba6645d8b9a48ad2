package io.bulwark.scheduler.kubernetes.internal;

import io.bulwark.api.scheduler.SchedulerConnector;
import io.bulwark.api.scheduler.SchedulerException;
import io.bulwark.api.scheduler.SchedulerNode;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.metatype.annotations.Designate;

/**
 * The Kubernetes scheduler connector: drains a node by cordoning it and tainting it {@code
 * bulwark.io/unhealthy=<kind>:NoSchedule} with the reason in the {@code bulwark.io/reason}
 * annotation, ends its work through the Eviction API ({@code policy/v1}, so disruption budgets are
 * honoured and nothing is forced), and resumes it by removing both. One instance per configuration
 * of PID {@code io.bulwark.scheduler.kubernetes} (a factory configuration per further cluster);
 * every call goes to the API server, bounded by {@code timeoutSeconds}, and is thread-safe.
 */
@Component(
    service = SchedulerConnector.class,
    configurationPid = "io.bulwark.scheduler.kubernetes",
    configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = KubernetesConfig.class)
public final class KubernetesConnector implements SchedulerConnector {
  private static final Logger LOG = System.getLogger(KubernetesConnector.class.getName());

  private final ClusterOptions options;
  private final KubernetesClient client;

  /**
   * Checks the configuration and opens the client (it connects on first use).
   *
   * @throws IllegalArgumentException if the configuration names no API server or a file that cannot
   *     be used; the message says what to set
   */
  @Activate
  public KubernetesConnector(KubernetesConfig config) {
    this(ClusterOptions.from(config));
  }

  KubernetesConnector(ClusterOptions options) {
    this.options = options;
    this.client = ClusterClient.open(options);
    if (options.cleartext()) {
      LOG.log(
          Level.WARNING,
          "{0}: the API server is reached over plain HTTP; use https:// unless it is a local"
              + " proxy",
          options.describe());
    }
    LOG.log(
        Level.INFO,
        "{0}: connector ready (pools from label {1}, requests bounded by {2} s)",
        options.describe(),
        options.poolLabel(),
        String.valueOf(options.timeout().toSeconds()));
  }

  @Deactivate
  void close() {
    client.close();
  }

  @Override
  public String name() {
    return options.name();
  }

  @Override
  public List<SchedulerNode> nodes() throws SchedulerException {
    List<Node> nodes = call("list nodes", null, () -> client.nodes().list().getItems());
    List<Pod> pods =
        call("list pods", null, () -> client.pods().inAnyNamespace().list().getItems());
    Map<String, List<Pod>> byNode = new HashMap<>();
    for (Pod pod : pods) {
      byNode.computeIfAbsent(Workload.node(pod), n -> new ArrayList<>()).add(pod);
    }
    List<SchedulerNode> read = new ArrayList<>(nodes.size());
    for (Node node : nodes) {
      List<Pod> on = byNode.getOrDefault(node.getMetadata().getName(), List.of());
      read.add(NodeReading.read(node, on, options.poolLabel()));
    }
    return read;
  }

  @Override
  public Optional<SchedulerNode> node(String name) throws SchedulerException {
    Node node = call("read node " + name, name, () -> client.nodes().withName(name).get());
    if (node == null) {
      return Optional.empty();
    }
    return Optional.of(NodeReading.read(node, podsOn(name), options.poolLabel()));
  }

  @Override
  public void drain(String node, String reason) throws SchedulerException {
    Node current = required(node, "drain " + node);
    if (!DrainMark.mark(current, reason)) {
      return;
    }
    call(
        "cordon and taint " + node,
        node,
        () -> client.nodes().withName(node).edit(n -> marked(n, reason)));
    LOG.log(
        Level.INFO,
        "{0}: cordoned {1} and tainted it {2}={3}:NoSchedule ({4})",
        options.describe(),
        node,
        DrainMark.TAINT_KEY,
        DrainMark.kind(reason),
        reason);
  }

  /**
   * Evicts every pod that counts as work on the cordoned node and is not already shutting down.
   * Returns false if a disruption budget held any of them back (429: nothing is forced, ask again
   * later), true if every one was accepted or none was left; the node reads DRAINED once the
   * evicted pods are gone.
   */
  @Override
  public boolean evict(String node) throws SchedulerException {
    Node current = required(node, "evict the pods of " + node);
    if (current.getSpec() == null || !Boolean.TRUE.equals(current.getSpec().getUnschedulable())) {
      throw new SchedulerException(
          options.describe()
              + ": will not evict the pods of "
              + node
              + ": it is not cordoned, so they could be scheduled straight back onto it; drain"
              + " it first");
    }
    boolean allAccepted = true;
    for (Pod pod : podsOn(node)) {
      if (!Workload.counts(pod) || Workload.terminating(pod)) {
        continue;
      }
      String id = Workload.id(pod);
      Eviction eviction =
          new EvictionBuilder()
              .withNewMetadata()
              .withName(pod.getMetadata().getName())
              .withNamespace(pod.getMetadata().getNamespace())
              .endMetadata()
              .build();
      boolean accepted;
      try {
        accepted =
            call(
                "evict pod " + id + " from " + node,
                null,
                () ->
                    client
                        .pods()
                        .inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName())
                        .evict(eviction));
      } catch (SchedulerException e) {
        if (e.getCause() instanceof KubernetesClientException k && k.getCode() == 404) {
          continue; // gone since it was listed
        }
        throw e;
      }
      if (accepted) {
        LOG.log(Level.INFO, "{0}: evicted pod {1} from {2}", options.describe(), id, node);
      } else {
        allAccepted = false;
        LOG.log(
            Level.INFO,
            "{0}: a disruption budget holds pod {1} on {2} back for now; it is asked again later",
            options.describe(),
            id,
            node);
      }
    }
    return allAccepted;
  }

  @Override
  public void resume(String node, String reason) throws SchedulerException {
    Node current = required(node, "resume " + node);
    if (!DrainMark.clear(current)) {
      return;
    }
    call("uncordon " + node, node, () -> client.nodes().withName(node).edit(n -> cleared(n)));
    LOG.log(
        Level.INFO,
        "{0}: uncordoned {1} and removed the {2} taint ({3})",
        options.describe(),
        node,
        DrainMark.TAINT_KEY,
        reason);
  }

  private static Node marked(Node node, String reason) {
    DrainMark.mark(node, reason);
    return node;
  }

  private static Node cleared(Node node) {
    DrainMark.clear(node);
    return node;
  }

  private Node required(String node, String action) throws SchedulerException {
    Node found = call(action, node, () -> client.nodes().withName(node).get());
    if (found == null) {
      throw new SchedulerException(
          options.describe()
              + ": cannot "
              + action
              + ": the cluster has no node named "
              + node
              + "; check that the machine's host name is its Kubernetes node name");
    }
    return found;
  }

  private List<Pod> podsOn(String node) throws SchedulerException {
    List<Pod> pods =
        call(
            "list the pods on " + node,
            null,
            () ->
                client.pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems());
    return pods.stream().filter(pod -> node.equals(Workload.node(pod))).toList();
  }

  private <T> T call(String action, String node, java.util.function.Supplier<T> request)
      throws SchedulerException {
    try {
      return ClusterClient.withBundleLoader(request);
    } catch (RuntimeException e) {
      throw ApiFailure.of(options, action, node, e);
    }
  }
}
