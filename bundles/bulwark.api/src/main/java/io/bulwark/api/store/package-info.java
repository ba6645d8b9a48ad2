/**
 * What every persistent repository shares: the exception that says a write (or read) was refused
 * because the store cannot take it now, and nothing was lost.
 */
@Export
@Version("1.0.0")
package io.bulwark.api.store;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
