/**
 * Export of the audit log for auditors: the records as JSON Lines or CSV, each export signed with
 * the appliance's audit signing key (ECDSA P-384) so that it can be checked away from the
 * appliance.
 */
@Export
@Version("1.0.0")
package io.bulwark.audit;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
