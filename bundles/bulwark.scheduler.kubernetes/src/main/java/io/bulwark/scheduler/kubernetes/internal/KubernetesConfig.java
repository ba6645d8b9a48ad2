package io.bulwark.scheduler.kubernetes.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Which Kubernetes cluster Bulwark drains nodes of, and how it signs in (PID {@code
 * io.bulwark.scheduler.kubernetes}). Either {@link #masterUrl} or {@link #kubeconfig} names the API
 * server; the credential is a bearer-token file or the kubeconfig's user. Secrets are read from
 * files, never held in the configuration.
 */
@ObjectClassDefinition(
    name = "Bulwark Kubernetes scheduler connector",
    description =
        "Cordons, taints and evicts Kubernetes nodes that Bulwark takes out of service, and returns"
            + " them to service.")
@interface KubernetesConfig {
  @AttributeDefinition(
      description =
          "The cluster's name in Bulwark's pages and messages, e.g. kubernetes or training-east.")
  String name() default "kubernetes";

  @AttributeDefinition(
      description =
          "The API server, e.g. https://10.0.0.1:6443; overrides the kubeconfig's server. Empty:"
              + " the kubeconfig's.")
  String masterUrl() default "";

  @AttributeDefinition(
      description =
          "Path of a kubeconfig file whose current context names the server, its CA and the user."
              + " Empty: none.")
  String kubeconfig() default "";

  @AttributeDefinition(
      description =
          "Path of a file holding the bearer token (e.g. a service account token); read at every"
              + " request, so a rotated token is picked up. Overrides the kubeconfig's user.")
  String tokenFile() default "";

  @AttributeDefinition(
      description =
          "Path of the PEM file with the CA certificate(s) that signed the API server's"
              + " certificate. Empty: the kubeconfig's CA.")
  String caCertFile() default "";

  @AttributeDefinition(description = "The node label whose value names a node's pool.")
  String poolLabel() default "node.kubernetes.io/pool";

  @AttributeDefinition(
      description = "Seconds the API server may take to accept a connection or answer a request.",
      min = "1")
  int timeoutSeconds() default 15;
}
