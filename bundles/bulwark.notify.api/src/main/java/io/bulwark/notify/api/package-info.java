/**
 * How findings leave the appliance. A channel bundle registers a {@link
 * io.bulwark.notify.api.ChannelType} service (syslog, a webhook, mail); the notification core
 * routes finding changes to the channels an administrator configured, keeps them in a persisted
 * outbox and hands each channel's {@link io.bulwark.notify.api.ChannelSender} batches of {@link
 * io.bulwark.notify.api.Notification}s, retrying with backoff. {@link
 * io.bulwark.notify.api.ClientTls} is the client TLS every channel uses (BCJSSE in FIPS mode).
 * Other areas tell people something about a finding through {@link io.bulwark.notify.api.Notices}
 * (a remediation run's notify step).
 */
@Export
@Version("1.1.0")
package io.bulwark.notify.api;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
