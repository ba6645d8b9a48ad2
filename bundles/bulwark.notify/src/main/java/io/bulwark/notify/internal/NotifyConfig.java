package io.bulwark.notify.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * The configuration of notifications (PID {@code io.bulwark.notify}): how the appliance names
 * itself to receivers and how much waits for a receiver that is away. The channels themselves are
 * configured through the API and the Alerts page.
 */
@ObjectClassDefinition(
    name = "Bulwark notifications",
    description = "How findings leave the appliance: names, links and the outbox's bound.")
public @interface NotifyConfig {

  @AttributeDefinition(
      name = "Appliance name",
      description =
          "How the appliance names itself in messages (syslog HOSTNAME, mail, alert labels); empty"
              + " for the host name.")
  String applianceName() default "";

  @AttributeDefinition(
      name = "External URL",
      description =
          "The admin plane's address as the people who receive alerts reach it, e.g."
              + " https://bulwark.example:8443, for links back to a finding; empty for none.")
  String externalUrl() default "";

  @AttributeDefinition(
      name = "Notifications kept per channel",
      description =
          "At most this many notifications wait for a channel whose receiver is away; beyond, the"
              + " oldest are dropped and counted.",
      min = "100",
      max = "1000000")
  int maxWaitingPerChannel() default 10_000;

  @AttributeDefinition(
      name = "Reconcile every (s)",
      description =
          "How often the open findings are compared with what each channel was told, so that a"
              + " change missed (the store was full, the bundle was updated) is sent after all.",
      min = "5",
      max = "3600")
  int reconcileSeconds() default 30;
}
