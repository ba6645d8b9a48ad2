/**
 * Automated remediation: policies that map findings to a ladder of steps, the step SPI that plugin
 * bundles implement (scheduler drain and resume, BMC power, GPU reset through the node agent,
 * re-validation, notification…), and the persisted runs that carry a node from isolation back to
 * service, or to a person.
 */
@Export
@Version("1.2.0")
package io.bulwark.api.remediation;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
