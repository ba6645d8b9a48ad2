/**
 * The BMC SPI: what any protocol bundle (Redfish, IPMI) implements so that Bulwark can power a
 * machine, set its next boot, and read its identity, sensors and event log through its BMC. The
 * machines bundle picks the driver by the endpoint's protocol.
 */
@Export
@Version("1.1.0")
package io.bulwark.api.bmc;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
