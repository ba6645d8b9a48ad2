package io.bulwark.testing.alerting;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Webhook bodies exactly as Alertmanager 0.25.0 (Debian) sent them to a {@link WebhookCapture}
 * through {@link AlertmanagerProcess}, byte for byte (one line of JSON and a newline), for tests
 * that compare the shape of the payloads their own code builds or parses with the real thing. The
 * files are in this package: {@code alertmanager-0.25-webhook-firing.json}, {@code -resolved.json}
 * and {@code -grouped.json}.
 *
 * <p>Alertmanager 0.25 always sends every field below, even when empty. Top level: {@code receiver}
 * string (the receiver's name), {@code status} string ({@code "firing"} while any alert of the call
 * fires, else {@code "resolved"}), {@code alerts} array of objects, {@code groupLabels} object of
 * strings (the {@code group_by} labels; all labels for {@code ['...']}), {@code commonLabels}
 * object of strings (labels all alerts of the call share), {@code commonAnnotations} object of
 * strings ({@code {}} when none are shared), {@code externalURL} string (Alertmanager's URL, no
 * trailing slash), {@code version} string ({@code "4"}), {@code groupKey} string (e.g. <code>
 * {}:{alertname="GpuXidError", node="gpu-node-001"}</code>), {@code truncatedAlerts} number (0
 * unless {@code max_alerts} cut the list).
 *
 * <p>Each alert: {@code status} string ({@code "firing"} or {@code "resolved"}), {@code labels}
 * object of strings, {@code annotations} object of strings ({@code {}} when none), {@code startsAt}
 * string (RFC 3339 in UTC with as many fraction digits as were posted, none for whole seconds;
 * Alertmanager's receive time when the post had none), {@code endsAt} string ({@code
 * "0001-01-01T00:00:00Z"} while firing, the end time once resolved), {@code generatorURL} string
 * ({@code ""} when none was posted), {@code fingerprint} string (16 hex digits, a hash of the
 * labels: the same alert keeps it from firing to resolved).
 */
public final class AlertmanagerWebhookSamples {
  private AlertmanagerWebhookSamples() {}

  /**
   * One firing alert, {@code GpuXidError} on {@code gpu-node-001} with severity critical, summary
   * annotation and generator URL, as sent with {@code group_by: ['...']}.
   */
  public static String firing() {
    return read("alertmanager-0.25-webhook-firing.json");
  }

  /** The alert of {@link #firing()} after it was posted again with an end time in the past. */
  public static String resolved() {
    return read("alertmanager-0.25-webhook-resolved.json");
  }

  /**
   * Two firing alerts (GPUs 3 and 5 of {@code gpu-node-001}, severities critical and warning) in
   * one call, as sent with {@code group_by: ['alertname', 'node']}: {@code groupLabels} holds only
   * those two labels, {@code commonLabels} leaves out gpu and severity, and {@code
   * commonAnnotations} keeps only the shared runbook annotation.
   */
  public static String grouped() {
    return read("alertmanager-0.25-webhook-grouped.json");
  }

  private static String read(String name) {
    try (InputStream in = AlertmanagerWebhookSamples.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(
            "the sample "
                + name
                + " is missing from bulwark.testing's jar; rebuild it with mvn install -pl"
                + " bundles/bulwark.testing");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the sample " + name + ": " + e, e);
    }
  }
}
