/**
 * GPU health: the findings detectors raise, the Detector SPI, finding queries and listeners, and
 * the effective-capacity account.
 */
@Export
@Version("1.6.0")
package io.bulwark.api.health;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
