/**
 * The tamper-evident audit log: what callers append (events), what it keeps (records), how to
 * search it and how to check that nothing was altered, removed or reordered.
 */
@Export
@Version("1.2.0")
package io.bulwark.api.audit;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
