/**
 * The fleet model: nodes, their GPUs and lifecycle states, and the repository that keeps the
 * inventory.
 */
@Export
@Version("1.1.0")
package io.bulwark.api.fleet;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
