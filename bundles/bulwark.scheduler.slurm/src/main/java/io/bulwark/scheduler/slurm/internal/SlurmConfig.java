package io.bulwark.scheduler.slurm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Which Slurm cluster the appliance drives and where its client commands live (PID {@code
 * io.bulwark.scheduler.slurm}; a further cluster gets a factory configuration of the same PID, e.g.
 * {@code io.bulwark.scheduler.slurm~east}, and a connector of its own).
 */
@ObjectClassDefinition(
    name = "Bulwark Slurm connector",
    description =
        "Drains and resumes nodes of a Slurm cluster with scontrol and reads their state,"
            + " partitions and jobs with sinfo and squeue, run on the appliance as root or as"
            + " Slurm's SlurmUser (or a user with AdminLevel=Operator).")
@interface SlurmConfig {
  @AttributeDefinition(
      description =
          "The scheduler's name in findings, remediation runs and errors, e.g. \"slurm\" or"
              + " \"slurm-east\".")
  String name() default "slurm";

  @AttributeDefinition(
      description =
          "The cluster's slurm.conf, given to the commands as SLURM_CONF; empty for the Slurm"
              + " client's default (the SLURM_CONF of the appliance's environment, else"
              + " /etc/slurm/slurm.conf).",
      required = false)
  String slurmConf() default "";

  @AttributeDefinition(
      description =
          "Folder that holds scontrol, sinfo and squeue: /usr/bin for the Debian and RPM"
              + " packages, /usr/local/bin or /opt/slurm/bin for a build from source.")
  String binDir() default "/usr/bin";

  @AttributeDefinition(
      description =
          "Seconds one scontrol, sinfo or squeue call may take before it is killed. Slurm's"
              + " commands retry an unreachable slurmctld for MessageTimeout (10 s by default)"
              + " before they say so; a shorter timeout reports a timeout instead.",
      min = "1",
      max = "300")
  int timeoutSeconds() default 10;
}
