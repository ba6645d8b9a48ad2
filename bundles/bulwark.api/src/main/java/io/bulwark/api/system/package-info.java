/**
 * The appliance's view of itself: each subsystem (store, audit log, telemetry, health engine, disk,
 * admin plane…) reports whether it works through a {@link io.bulwark.api.system.SubsystemCheck}
 * service; the health API, the System page, {@code /metrics} and the health engine's appliance
 * findings all read those reports.
 */
@Export
@Version("1.4.0")
package io.bulwark.api.system;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
