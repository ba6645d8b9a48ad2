/**
 * The provisioning plane's contract with the area that decides what machines boot: the plane (DHCP,
 * TFTP, HTTP boot) asks a {@link io.bulwark.api.provisioning.BootPlanner} what a booting machine
 * should do ({@link io.bulwark.api.provisioning.BootPurpose}) and hands it what the boot
 * environment reports ({@link io.bulwark.api.provisioning.BootReport}), once the report's one-time
 * token of that boot has been checked.
 */
@Export
@Version("1.1.0")
package io.bulwark.api.provisioning;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
