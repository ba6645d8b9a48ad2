package io.bulwark.runtime.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** What the appliance must have running before it counts as started. */
@ObjectClassDefinition(
    name = "Bulwark start-up check",
    description = "Services the role cannot run without; missing after the timeout, Bulwark exits.")
public @interface StartupConfig {

  @AttributeDefinition(description = "Service interfaces (class names) that must be registered.")
  String[] requiredServices() default {};

  @AttributeDefinition(description = "Seconds to wait after the framework started.", min = "1")
  int timeoutSeconds() default 60;
}
