package io.bulwark.api.health;

import io.bulwark.api.fleet.NodeId;

/**
 * The capacity one GPU delivers: whether it is healthy (no open critical finding, reporting
 * telemetry) and its performance relative to a sound GPU of the fleet, in [0, 1].
 */
public record GpuCapacity(NodeId node, int gpu, boolean healthy, double relativePerformance) {}
