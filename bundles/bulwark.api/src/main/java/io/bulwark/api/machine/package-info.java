/**
 * Machines: the servers Bulwark manages through their BMCs, each with a life-cycle state spelled as
 * MAAS spells it (plus Bulwark's own Quarantined and Remediating), the operations that move it, its
 * history, and the link to the GPU node telemetry knows it as. Provided by {@code
 * bulwark.machines}; used by the web API, and later by remediation and provisioning.
 */
@Export
@Version("1.4.0")
package io.bulwark.api.machine;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
