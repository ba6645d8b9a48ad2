package io.bulwark.agent.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the GPU node agent (PID {@code io.bulwark.agent}): where its dcgm-exporter
 * compatible {@code /metrics} listens, which NVML library it loads, the Hostname label it puts on
 * every line and how long one NVML sample serves scrapes. Read once by {@link AgentOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark GPU node agent",
    description =
        "Reads the node's GPUs through NVML and serves them as a dcgm-exporter page at /metrics.")
public @interface AgentConfig {

  @AttributeDefinition(
      name = "Bind address",
      description =
          "Address /metrics listens on: 127.0.0.1 (loopback only) or the address the appliance"
              + " scrapes, e.g. 0.0.0.0 (all).")
  String bindAddress() default "127.0.0.1";

  @AttributeDefinition(
      name = "Port",
      description = "TCP port, 0 to 65535 (dcgm-exporter's is 9400); 0 picks a free port.")
  int port() default 9400;

  @AttributeDefinition(
      name = "NVML library",
      description =
          "File name of the NVML library (searched on the system library path and"
              + " jna.library.path) or its absolute path.")
  String library() default "libnvidia-ml.so.1";

  @AttributeDefinition(
      name = "Hostname",
      description = "Value of the Hostname label; empty for this machine's host name.")
  String hostname() default "";

  @AttributeDefinition(
      name = "Sample reuse (ms)",
      description =
          "How long one NVML sample answers scrapes, 0 to 60000; 0 samples on every scrape.",
      min = "0",
      max = "60000")
  int sampleReuseMillis() default 500;
}
