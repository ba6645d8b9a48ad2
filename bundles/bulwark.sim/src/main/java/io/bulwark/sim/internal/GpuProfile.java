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
 * @param sbeAggregate single-bit ECC errors over the GPU's life (at least the volatile count)
 * @param powerViolationNs time spent power-capped before the simulation began
 * @param thermalViolationNs time spent thermally slowed before the simulation began
 * @param nvlinkReplays NVLink replays since boot (a few links replay once after training)
 * @param crcSecondsPerError seconds between two NVLink CRC flit errors while busy, 0 for none
 * @param correctableRemappedRows memory rows remapped for correctable errors before the boot
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
    double dramActive,
    long sbeAggregate,
    long powerViolationNs,
    long thermalViolationNs,
    long nvlinkReplays,
    long crcSecondsPerError,
    long correctableRemappedRows) {}
