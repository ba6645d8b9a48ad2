/**
 * Test doubles shared by the unit tests of the Bulwark bundles: in-memory telemetry and inventory
 * that stand in for the telemetry and store bundles, and typed configuration built from a map. Used
 * by unit tests only; this bundle is a test-scope dependency and never ships in the appliance.
 */
@Export
@Version("1.3.0")
package io.bulwark.testing;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
