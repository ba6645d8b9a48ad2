package io.bulwark.scheduler.pbs.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.osgi.service.metatype.annotations.Option;

/**
 * Which PBS the appliance drives and where its {@code pbsnodes} lives (PID {@code
 * io.bulwark.scheduler.pbs}; a further PBS server gets a factory configuration of the same PID,
 * e.g. {@code io.bulwark.scheduler.pbs~east}, and a connector of its own).
 */
@ObjectClassDefinition(
    name = "Bulwark PBS connector",
    description =
        "Drains and resumes nodes of an OpenPBS / PBS Professional or Torque cluster with the"
            + " server's pbsnodes command, run on the appliance as a PBS manager or operator.")
@interface PbsConfig {
  @AttributeDefinition(
      description =
          "The scheduler's name in findings, remediation runs and errors, e.g. \"pbs\" or"
              + " \"pbs-east\".")
  String name() default "pbs";

  @AttributeDefinition(
      description =
          "Which pbsnodes this is: OpenPBS / PBS Professional (offline with -C comment, state from"
              + " -F json) or Torque (offline with -N note, state from -x).",
      options = {
        @Option(label = "OpenPBS / PBS Professional", value = "openpbs"),
        @Option(label = "Torque", value = "torque")
      })
  String flavour() default "openpbs";

  @AttributeDefinition(
      description =
          "Folder that holds pbsnodes: /opt/pbs/bin for OpenPBS and PBS Professional; Torque"
              + " installs it in /usr/local/bin unless built with another prefix.")
  String binDir() default "/opt/pbs/bin";

  @AttributeDefinition(
      description =
          "PBS server to ask (pbsnodes -s); empty for the default server of the appliance's"
              + " PBS client configuration.",
      required = false)
  String server() default "";

  @AttributeDefinition(
      description = "Seconds one pbsnodes call may take before it is killed.",
      min = "1",
      max = "300")
  int timeoutSeconds() default 10;
}
