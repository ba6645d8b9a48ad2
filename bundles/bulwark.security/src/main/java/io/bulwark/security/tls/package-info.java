/**
 * The admin plane's TLS: the server's key material in the FIPS module's JSSE provider, and the
 * protocols and cipher suites the admin plane allows. Provided by the security bundle; used by the
 * web bundle to listen on HTTPS.
 */
@Export
@Version("1.0.0")
package io.bulwark.security.tls;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
