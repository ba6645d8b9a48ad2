/**
 * Real network receivers on loopback for the unit tests of the bundles that send alerts out: an
 * rsyslogd that takes RFC 5424 syslog over TLS (RFC 5425), plain TCP or UDP, an exim SMTP server
 * with STARTTLS and AUTH, and the throwaway certificate authority both serve certificates from.
 * Each receiver runs the Debian package's daemon as a child process in a temporary folder, writes
 * what it receives there, and hands it back to the test as text.
 */
@Export
@Version("1.1.0")
package io.bulwark.testing.receivers;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
