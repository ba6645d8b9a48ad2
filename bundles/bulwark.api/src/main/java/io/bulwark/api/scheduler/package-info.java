/**
 * The scheduler SPI: what a workload-manager bundle (Slurm, Kubernetes, OpenPBS/Torque) implements
 * so that remediation can take a node out of service, see when its work has left, bring it back,
 * and read which jobs run where. Node names are the scheduler's; remediation maps them to machines
 * by host name.
 */
@Export
@Version("1.1.0")
package io.bulwark.api.scheduler;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
