/**
 * Detectors over what machines' BMCs report (sensors and event logs), read from the machines
 * bundle's latest polls: failed fans, failed power supplies, hot inlet air, sensors in Critical,
 * and hardware failures in the event log. Each finding is on the machine's GPU node (or a node
 * named by its host name) with the reading or the event log entry as evidence.
 */
package io.bulwark.health.bmc.internal;
