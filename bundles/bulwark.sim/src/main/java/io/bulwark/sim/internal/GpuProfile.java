package io.bulwark.sim.internal;

/**
 * The constants that set one simulated GPU apart from its peers: whether its node is idle, when the
 * node booted, and the means around which its readings move. Drawn once from the seed by {@link
 * GpuModel}.
 *
 * @param key the GPU's noise key (node index and GPU index)
 * @param bootMillis when the node booted, epoch milliseconds (the energy and NVLink counters start
 *     there)
 * @param powerMean mean power draw in W; also the rate of the energy counter
 * @param tempPhaseSeconds phase of the slow temperature swing
 * @param nvlinkRate NVLink traffic in MiB per second while busy
 */
record GpuProfile(
    long key,
    boolean idle,
    long bootMillis,
    double utilMean,
    double memCopyMean,
    double powerMean,
    double baseTemp,
    double memTempOffset,
    double tempPhaseSeconds,
    long fbUsed,
    long sbeErrors,
    long pcieReplays,
    double nvlinkRate,
    double smActive,
    double smOccupancy,
    double tensorActive,
    double dramActive) {}
