package io.bulwark.scheduler.kubernetes.internal;

import io.bulwark.api.scheduler.SchedulerException;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Turns what the fabric8 client throws into a {@link SchedulerException} that tells an operator
 * which cluster and node, what the API server said (or that it did not answer), and what to do.
 * Used by {@link KubernetesConnector} for every call.
 */
final class ApiFailure {
  /** The RBAC rules the connector needs, as an operator grants them. */
  static final String RIGHTS =
      "get, list and patch on nodes, list on pods, and create on pods/eviction";

  private ApiFailure() {}

  /**
   * Returns the failure of {@code action} (e.g. "cordon gpu-a07") on {@code node}; {@code node} is
   * null for calls about the whole cluster.
   */
  static SchedulerException of(
      ClusterOptions options, String action, String node, RuntimeException thrown) {
    String prefix = options.describe() + ": cannot " + action + ": ";
    if (!(thrown instanceof KubernetesClientException e) || e.getCode() <= 0) {
      return new SchedulerException(prefix + unanswered(options, thrown), thrown);
    }
    String said = said(e);
    String advice =
        switch (e.getCode()) {
          case 401 ->
              "the API server does not accept the credentials (401 Unauthorized"
                  + said
                  + "); check that "
                  + credentialSource(options)
                  + " holds a current token for the cluster";
          case 403 ->
              "the API server forbids it (403 Forbidden"
                  + said
                  + "); grant the account Bulwark signs in as "
                  + RIGHTS;
          case 404 ->
              node == null
                  ? "the API server has no such resource (404" + said + ")"
                  : "the cluster has no node named "
                      + node
                      + " (404"
                      + said
                      + "); check that the machine's host name is its Kubernetes node name";
          case 409 ->
              "the node changed while Bulwark updated it (409 Conflict"
                  + said
                  + "); it is asked again at the next attempt";
          case 422 -> "the API server rejected the change (422 Invalid" + said + ")";
          case 429 ->
              "the API server asks to slow down (429 Too Many Requests"
                  + said
                  + "); it is asked again later";
          default ->
              e.getCode() >= 500
                  ? "the API server failed ("
                      + e.getCode()
                      + said
                      + "); check the control plane's health, then try again"
                  : "the API server answered " + e.getCode() + said;
        };
    return new SchedulerException(prefix + advice, thrown);
  }

  private static String unanswered(ClusterOptions options, Throwable thrown) {
    String server = options.masterUrl().isEmpty() ? "the API server" : options.masterUrl();
    long seconds = options.timeout().toSeconds();
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof TokenFile.Unreadable) {
        return t.getMessage();
      }
      if (t instanceof HttpTimeoutException
          || t instanceof TimeoutException
          || t instanceof InterruptedIOException) {
        return server
            + " did not answer within "
            + seconds
            + " s; check that the API server is up and reachable from the appliance, or raise"
            + " timeoutSeconds";
      }
      if (t instanceof ConnectException || t instanceof NoRouteToHostException) {
        return "cannot connect to "
            + server
            + " ("
            + t.getClass().getSimpleName()
            + (t.getMessage() == null ? "" : ": " + t.getMessage())
            + "); check masterUrl and that the appliance can reach the API server's port";
      }
      if (t instanceof UnknownHostException) {
        return "cannot resolve the host of "
            + server
            + "; check masterUrl (or the kubeconfig's server) and the appliance's DNS";
      }
      if (t instanceof SSLException) {
        return "the TLS handshake with "
            + server
            + " failed ("
            + t.getMessage()
            + "); check that caCertFile (or the kubeconfig's certificate-authority) holds the"
            + " CA that signed the API server's certificate";
      }
    }
    String message = thrown.getMessage() == null ? thrown.toString() : thrown.getMessage();
    return "no answer from " + server + " (" + message + ")";
  }

  private static String said(KubernetesClientException e) {
    Status status = e.getStatus();
    String message = status == null ? null : status.getMessage();
    return message == null || message.isBlank() ? "" : ": " + message.strip();
  }

  private static String credentialSource(ClusterOptions options) {
    if (options.tokenFile().isPresent()) {
      return "the token file " + options.tokenFile().get();
    }
    if (options.kubeconfig().isPresent()) {
      return "the kubeconfig " + options.kubeconfig().get();
    }
    return "tokenFile (none is set)";
  }
}
