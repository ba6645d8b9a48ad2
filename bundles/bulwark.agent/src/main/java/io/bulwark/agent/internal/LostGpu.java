package io.bulwark.agent.internal;

/**
 * A GPU the node agent had seen and can no longer read: NVML answers {@code GPU_IS_LOST} for it, or
 * no longer enumerates it.
 *
 * @param index its last known NVML index
 * @param uuid its UUID, empty if it was never read
 * @param reason what NVML said, in an operator's words
 */
record LostGpu(int index, String uuid, String reason) {}
