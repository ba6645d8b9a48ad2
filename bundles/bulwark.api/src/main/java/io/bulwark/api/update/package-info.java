/**
 * Offline updates: the checks a bundle contributes to the health check that follows every hot swap
 * of the bundle set. Implemented by any bundle; run by {@code bulwark.updates}, which rolls the
 * swap back when one fails.
 */
@Export
@Version("1.0.0")
package io.bulwark.api.update;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
