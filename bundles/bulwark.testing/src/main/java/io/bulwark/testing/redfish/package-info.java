/**
 * A Redfish service for tests, serving the DMTF mockups as a BMC does (no real BMC runs here), and
 * where the mockups are.
 */
@Export
@Version("1.1.0")
package io.bulwark.testing.redfish;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
