package io.bulwark.agent.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the node agent's action channel (PID {@code io.bulwark.agent.actions}). Without
 * it the channel is off and the agent takes no actions. The enrolment settings are read only while
 * the agent has no identity yet; the token is spent by the enrolment.
 */
@ObjectClassDefinition(
    name = "Bulwark node agent action channel",
    description =
        "Mutually authenticated TLS endpoint through which the appliance asks for a GPU reset"
            + " (nvidia-smi) or DCGM diagnostics (dcgmi); every request and answer signed and"
            + " audited.")
public @interface ActionChannelConfig {
  @AttributeDefinition(
      name = "Bind address",
      description =
          "IP address of this node the channel listens on (0.0.0.0 for all); empty for the agent's"
              + " own (bindAddress of io.bulwark.agent, BULWARK_AGENT_BIND_ADDRESS).")
  String bindAddress() default "";

  @AttributeDefinition(name = "Port", description = "TCP port of the channel, 0 to 65535.")
  int port() default 9401;

  @AttributeDefinition(
      name = "Advertised address",
      description = "Host or address the appliance dials; empty for this machine's host name.")
  String advertiseAddress() default "";

  @AttributeDefinition(
      name = "Node name",
      description = "The node's name as the appliance knows it; empty for the host name.")
  String hostname() default "";

  @AttributeDefinition(
      name = "Identity folder",
      description = "Where the agent's key and certificates are kept (service user only).")
  String identityDirectory() default "data/agent-identity";

  @AttributeDefinition(
      name = "Appliance URL",
      description = "https://host:port of the appliance to enrol with; empty: no enrolment.")
  String applianceUrl() default "";

  @AttributeDefinition(
      name = "Appliance fingerprint",
      description = "SHA-256 of the appliance's admin TLS certificate, pinned for the enrolment.")
  String applianceFingerprint() default "";

  @AttributeDefinition(
      name = "Enrolment token",
      description = "The one-time token an admin issued for this node.",
      type = org.osgi.service.metatype.annotations.AttributeType.PASSWORD)
  String enrolmentToken() default "";

  @AttributeDefinition(name = "nvidia-smi", description = "Path of nvidia-smi.")
  String nvidiaSmi() default "/usr/bin/nvidia-smi";

  @AttributeDefinition(name = "dcgmi", description = "Path of dcgmi (DCGM).")
  String dcgmi() default "/usr/bin/dcgmi";

  @AttributeDefinition(
      name = "Action timeout (s)",
      description = "An action still running after this is killed and fails, 10 to 86400.",
      min = "10",
      max = "86400")
  int actionTimeoutSeconds() default 1800;

  @AttributeDefinition(name = "Audit file", description = "The agent's hash-chained audit file.")
  String auditFile() default "data/agent-audit.jsonl";
}
