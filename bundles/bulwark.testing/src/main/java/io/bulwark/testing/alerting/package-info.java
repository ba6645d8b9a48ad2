/**
 * Fixtures for tests of code that raises alerts: a real Prometheus Alertmanager run on loopback
 * ({@link io.bulwark.testing.alerting.AlertmanagerProcess}), an HTTP server that records the
 * webhooks it gets ({@link io.bulwark.testing.alerting.WebhookCapture}), and webhook payloads as
 * Alertmanager 0.25 sent them ({@link io.bulwark.testing.alerting.AlertmanagerWebhookSamples}).
 */
@Export
@Version("1.0.0")
package io.bulwark.testing.alerting;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
