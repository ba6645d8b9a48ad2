package io.bulwark.health.dcgm.internal;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/**
 * Configuration of the straggler detector (PID {@code io.bulwark.health.dcgm.straggler}). Read once
 * by {@link StragglerOptions}.
 */
@ObjectClassDefinition(
    name = "Bulwark straggler detector",
    description =
        "Reports busy GPUs that run persistently slower than the busy GPUs of the same model on"
            + " their node, and, with a job map, nodes that run persistently slower than the other"
            + " nodes of their job (robust z-scores and a CUSUM change-point test).")
public @interface StragglerDetectorConfig {

  @AttributeDefinition(name = "Window (s)", description = "How far back the CUSUM runs; 1 to 3600.")
  int windowSeconds() default 120;

  @AttributeDefinition(
      name = "Deviation floor",
      description =
          "Smallest relative deviation (share of the peer median) a z-score divides by; in (0, 1).")
  double deviationFloor() default 0.03;

  @AttributeDefinition(
      name = "Allowance (k)",
      description = "Shortfall in deviations a sample may show without accumulating; 0 or more.")
  double allowance() default 2.0;

  @AttributeDefinition(
      name = "Decision threshold (h)",
      description = "CUSUM value above which a GPU is a straggler; above 0.")
  double decisionThreshold() default 12;

  @AttributeDefinition(
      name = "z-score cap",
      description = "Largest z-score magnitude one sample contributes; above the allowance.")
  double zCap() default 4;

  @AttributeDefinition(
      name = "Minimum lag (s)",
      description =
          "Fewest seconds a GPU's CUSUM must have stayed above zero before it lags: a stall shorter"
              + " than this, however deep, is no straggler; 1 to the window.")
  int minLagSeconds() default 10;

  @AttributeDefinition(
      name = "Minimum peers",
      description = "Fewest other busy GPUs of the same model on the node to judge; 2 or more.")
  int minPeers() default 3;

  @AttributeDefinition(
      name = "Busy utilisation (%)",
      description =
          "GPU_UTIL from which a GPU counts as busy; idle samples are neither judged nor peers;"
              + " 0 to 100.")
  double busyUtilPercent() default 50;

  @AttributeDefinition(
      name = "Throttled fraction",
      description =
          "Share of samples with a thermal or power throttle bit from which a slow GPU is left to"
              + " the throttle detectors; above 0, at most 1.")
  double sustainedFraction() default 0.5;

  @AttributeDefinition(
      name = "Compare SM activity",
      description =
          "Also compare DCGM_FI_PROF_SM_ACTIVE (else GPU_UTIL) with the peers when telemetry has"
              + " it.")
  boolean compareSmActive() default true;

  @AttributeDefinition(
      name = "Compare power",
      description = "Also compare DCGM_FI_DEV_POWER_USAGE with the peers.")
  boolean comparePower() default true;

  @AttributeDefinition(
      name = "Compare the nodes of a job",
      description =
          "When a job map is installed, also compare each node of a multi-node job with the job's"
              + " other nodes (whole-node slowdowns the node's own GPUs cannot show).")
  boolean compareJobNodes() default true;

  @AttributeDefinition(
      name = "Minimum job nodes",
      description =
          "Fewest nodes of one job, each in the job for the whole window, needed to compare them;"
              + " 3 or more.")
  int jobMinNodes() default 3;

  @AttributeDefinition(
      name = "Job map age limit (s)",
      description =
          "The job comparison pauses while the job map is older than this (a scheduler not read);"
              + " 1 to 3600.")
  int jobMapMaxAgeSeconds() default 60;

  @AttributeDefinition(
      name = "Evaluation interval (s)",
      description =
          "How often the detector judges, in seconds (0: at every evaluation of the engine). Its"
              + " CUSUM runs over a two-minute window, the costliest judgement of all; judging it"
              + " every few seconds adds that much at most to the time a straggler takes to be"
              + " found. 0 to 3600.")
  int evaluationIntervalSeconds() default 4;
}
