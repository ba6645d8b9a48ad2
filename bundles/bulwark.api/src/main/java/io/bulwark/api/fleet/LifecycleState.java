package io.bulwark.api.fleet;

/**
 * Where a node stands in its bare-metal lifecycle, in the states operators know from MAAS. Nodes
 * first seen through telemetry are {@link #DEPLOYED}: they run workloads already.
 */
public enum LifecycleState {
  NEW,
  COMMISSIONING,
  READY,
  ALLOCATED,
  DEPLOYING,
  DEPLOYED,
  RELEASING,
  BROKEN,
  RESCUE
}
