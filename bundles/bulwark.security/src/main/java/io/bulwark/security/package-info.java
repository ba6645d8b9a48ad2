/**
 * The appliance's FIPS cryptography as services: the crypto module (its status and its DRBG) and
 * password hashing with the password policy, and local accounts (logins, sessions, API tokens).
 * Provided by the security bundle; used by the web bundle (health page, logins, user
 * administration) and by every bundle that needs random bytes.
 */
@Export
@Version("1.2.0")
package io.bulwark.security;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
