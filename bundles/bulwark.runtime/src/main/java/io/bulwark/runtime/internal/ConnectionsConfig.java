package io.bulwark.runtime.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** How many of the process's file descriptors inbound connections may never take. */
@ObjectClassDefinition(
    name = "Bulwark inbound connections",
    description =
        "Every listener refuses new connections while the process is this close to its open-file"
            + " limit, so that the store, the audit log and telemetry keep what they need.")
public @interface ConnectionsConfig {

  @AttributeDefinition(
      description =
          "File descriptors kept from inbound connections; 0 keeps a tenth of the limit (at least"
              + " 256, at most half).",
      min = "0")
  int fileDescriptorReserve() default 0;
}
