package io.bulwark.notify.webhook.internal;

import io.bulwark.api.health.Finding;
import io.bulwark.notify.api.ChannelConfig;
import io.bulwark.notify.api.Notification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A finding as a Prometheus-style alert: labels ({@code alertname} = the finding's kind, {@code
 * node}, {@code gpu}, {@code severity}, {@code source="bulwark"}, the node's file_sd labels), and
 * annotations (summary, recommended action, finding id and link). Written the two ways Alertmanager
 * speaks: the alert it receives ({@code POST /api/v2/alerts}) and the webhook message it sends to
 * receivers (version 4), so receivers built for Alertmanager take Bulwark's as they are. Stateless.
 */
final class Alerts {
  /** What Alertmanager writes as the end of an alert that has not ended. */
  static final String NO_END = "0001-01-01T00:00:00Z";

  private Alerts() {}

  /** Returns the alert's labels, sorted by name. */
  static Map<String, String> labels(Notification n, ChannelConfig config) {
    Finding f = n.finding();
    Map<String, String> labels = new TreeMap<>();
    n.nodeLabels().forEach((k, v) -> labels.put(labelName(k), v));
    labels.put("alertname", f.kind());
    labels.put("node", f.node().value());
    if (f.gpu() >= 0) {
      labels.put("gpu", Integer.toString(f.gpu()));
    }
    if (!f.gpuUuid().isEmpty()) {
      labels.put("gpu_uuid", f.gpuUuid());
    }
    labels.put("severity", n.severity().name().toLowerCase(Locale.ROOT));
    labels.put("source", "bulwark");
    labels.put("appliance", config.appliance());
    return labels;
  }

  /** Returns the alert's annotations. */
  static Map<String, String> annotations(Notification n, ChannelConfig config) {
    Finding f = n.finding();
    Map<String, String> a = new TreeMap<>();
    a.put("summary", f.summary());
    if (!f.recommendedAction().isEmpty()) {
      a.put("description", f.recommendedAction());
    }
    a.put("finding_id", f.id());
    if (!n.notice().isEmpty()) {
      // a remediation run's notice about the alert (the people its policy names are told what)
      a.put("notice", n.notice());
    }
    return a;
  }

  /** Returns the link to the finding on the admin plane, or empty. */
  static String link(Notification n, ChannelConfig config) {
    return config.externalUrl().isEmpty() ? "" : config.externalUrl() + "/#/findings";
  }

  /** Returns the alert as {@code POST /api/v2/alerts} takes it. */
  static JsonObject postable(Notification n, ChannelConfig config, Instant endsIfFiring) {
    Finding f = n.finding();
    JsonObject alert =
        new JsonObject()
            .put("labels", new JsonObject(new LinkedHashMap<>(labels(n, config))))
            .put("annotations", new JsonObject(new LinkedHashMap<>(annotations(n, config))))
            .put("startsAt", time(f.firstSeen()))
            .put(
                "endsAt",
                time(
                    n.firing()
                        ? endsIfFiring
                        : Objects.requireNonNullElse(f.resolvedAt(), n.at())));
    String link = link(n, config);
    if (!link.isEmpty()) {
      alert.put("generatorURL", link);
    }
    return alert;
  }

  /** Returns the webhook message Alertmanager would send a receiver for this group of alerts. */
  static JsonObject webhook(List<Notification> batch, ChannelConfig config) {
    JsonArray alerts = new JsonArray();
    List<Map<String, String>> allLabels = new ArrayList<>();
    List<Map<String, String>> allAnnotations = new ArrayList<>();
    boolean firing = false;
    for (Notification n : batch) {
      Map<String, String> labels = labels(n, config);
      Map<String, String> annotations = annotations(n, config);
      allLabels.add(labels);
      allAnnotations.add(annotations);
      firing |= n.firing();
      Finding f = n.finding();
      alerts.add(
          new JsonObject()
              .put("status", n.firing() ? "firing" : "resolved")
              .put("labels", new JsonObject(new LinkedHashMap<>(labels)))
              .put("annotations", new JsonObject(new LinkedHashMap<>(annotations)))
              .put("startsAt", time(f.firstSeen()))
              .put(
                  "endsAt",
                  n.firing() ? NO_END : time(Objects.requireNonNullElse(f.resolvedAt(), n.at())))
              .put("generatorURL", link(n, config))
              .put("fingerprint", fingerprint(labels)));
    }
    Map<String, String> groupLabels = new TreeMap<>();
    return new JsonObject()
        .put("receiver", config.name())
        .put("status", firing ? "firing" : "resolved")
        .put("alerts", alerts)
        .put("groupLabels", new JsonObject(new LinkedHashMap<>(groupLabels)))
        .put("commonLabels", new JsonObject(new LinkedHashMap<>(common(allLabels))))
        .put("commonAnnotations", new JsonObject(new LinkedHashMap<>(common(allAnnotations))))
        .put("externalURL", config.externalUrl())
        .put("version", "4")
        .put("groupKey", "{}:{}")
        .put("truncatedAlerts", 0);
  }

  /** Returns what every map has in common: the entries present with the same value in all. */
  static Map<String, String> common(List<Map<String, String>> maps) {
    if (maps.isEmpty()) {
      return Map.of();
    }
    Map<String, String> common = new TreeMap<>(maps.get(0));
    for (Map<String, String> m : maps.subList(1, maps.size())) {
      common.entrySet().removeIf(e -> !e.getValue().equals(m.get(e.getKey())));
    }
    return common;
  }

  /**
   * Returns the fingerprint Prometheus and Alertmanager give a label set: FNV-1a 64 over the labels
   * sorted by name, each name and value followed by the byte 0xFF, as 16 hex digits.
   */
  static String fingerprint(Map<String, String> labels) {
    long hash = 0xcbf29ce484222325L;
    for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
      hash = fnv(hash, e.getKey().getBytes(StandardCharsets.UTF_8));
      hash = fnv(hash, new byte[] {(byte) 0xFF});
      hash = fnv(hash, e.getValue().getBytes(StandardCharsets.UTF_8));
      hash = fnv(hash, new byte[] {(byte) 0xFF});
    }
    return String.format(Locale.ROOT, "%016x", hash);
  }

  private static long fnv(long hash, byte[] bytes) {
    for (byte b : bytes) {
      hash ^= b & 0xFF;
      hash *= 0x100000001b3L;
    }
    return hash;
  }

  /** A label name as Prometheus allows them: [a-zA-Z_][a-zA-Z0-9_]*. */
  static String labelName(String name) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || c == '_'
              || (i > 0 && c >= '0' && c <= '9');
      b.append(ok ? c : '_');
    }
    return b.length() == 0 ? "_" : b.toString();
  }

  static String time(Instant at) {
    return at.truncatedTo(ChronoUnit.MILLIS).toString();
  }
}
