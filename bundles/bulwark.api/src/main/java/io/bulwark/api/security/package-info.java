/**
 * Security contracts: roles, the FIPS crypto module's status, secrets kept encrypted at rest, and
 * the sealing of the data-encryption key to a TPM.
 */
@Export
@Version("1.1.0")
package io.bulwark.api.security;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
