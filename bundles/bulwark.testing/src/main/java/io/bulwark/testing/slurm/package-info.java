/**
 * A real Slurm 22.05 cluster on loopback for the tests of code that drives Slurm: munged, slurmctld
 * and one slurmd per node, run from the Debian packages as child processes in a temporary folder
 * ({@link io.bulwark.testing.slurm.SlurmCluster}), with helpers to submit and cancel jobs and run
 * the real client commands against it.
 */
@Export
@Version("1.0.0")
package io.bulwark.testing.slurm;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
