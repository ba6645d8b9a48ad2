/**
 * The fleet model: nodes and their GPUs, and the repository that keeps the inventory. (The life
 * cycle of a machine belongs to the machines' own API.)
 */
@Export
@Version("2.0.0")
package io.bulwark.api.fleet;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
