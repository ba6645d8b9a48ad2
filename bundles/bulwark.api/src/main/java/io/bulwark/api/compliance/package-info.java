/**
 * Compliance: the live checks that prove, on a running appliance, how it meets the controls of the
 * STIG requirement map ({@code stig/asd-stig.json}, whose automated rules name a check by its id).
 * A bundle contributes a {@link io.bulwark.api.compliance.ComplianceCheck} service for what it
 * owns; each result carries its status as STIG Viewer spells it, a line for the assessor and the
 * evidence.
 */
@Export
@Version("1.0.0")
package io.bulwark.api.compliance;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
