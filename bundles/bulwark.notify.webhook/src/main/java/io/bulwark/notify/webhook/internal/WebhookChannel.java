package io.bulwark.notify.webhook.internal;

import io.bulwark.api.security.CryptoModule;
import io.bulwark.notify.api.ChannelConfig;
import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.ChannelSetting;
import io.bulwark.notify.api.ChannelType;
import io.bulwark.notify.api.DeliveryException;
import io.bulwark.notify.api.Notification;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The {@code webhook} channel type: posts groups of notifications to a URL, either as the webhook
 * message Alertmanager sends ({@code format=alertmanager}, so receivers written for Alertmanager
 * work unchanged) or as Bulwark's own JSON ({@code format=json}: each notification with the whole
 * finding and its evidence). An optional credential is sent as a bearer token.
 */
@Component(service = ChannelType.class)
public final class WebhookChannel implements ChannelType {

  /** The crypto module is referenced so that BCJSSE is installed before a channel opens. */
  @Activate
  public WebhookChannel(@Reference CryptoModule crypto) {}

  WebhookChannel() {}

  @Override
  public String type() {
    return "webhook";
  }

  @Override
  public List<ChannelSetting> settings() {
    return List.of(
        ChannelSetting.required("url", "Where to post, e.g. https://hooks.example/bulwark"),
        ChannelSetting.optional(
            "format",
            "alertmanager (the webhook JSON Alertmanager sends) or json (Bulwark's)",
            "alertmanager"),
        ChannelSetting.optional(
            "caCertificate",
            "The CA certificate(s) that signed the receiver's, in PEM (for https)",
            ""),
        ChannelSetting.optional(
            "allowPlaintext",
            "true to allow an http:// URL: findings then cross the network readable",
            "false"),
        ChannelSetting.optional(
            "maxAlerts", "At most this many notifications per message (1-500)", "64"));
  }

  @Override
  public ChannelSender open(ChannelConfig config) {
    String format = config.setting("format", "alertmanager").toLowerCase(Locale.ROOT);
    if (!format.equals("alertmanager") && !format.equals("json")) {
      throw new IllegalArgumentException(
          "the channel '" + config.name() + "' setting 'format' must be alertmanager or json");
    }
    int max = config.number("maxAlerts", 64, 1, 500);
    HttpPoster poster = Targets.poster(config, "");
    return new ChannelSender() {
      @Override
      public void send(List<Notification> batch) throws DeliveryException {
        JsonObject body =
            format.equals("alertmanager") ? Alerts.webhook(batch, config) : plain(batch, config);
        poster.post(body.encode());
      }

      @Override
      public int maxBatch() {
        return max;
      }

      @Override
      public void close() {
        poster.close();
      }
    };
  }

  /** Bulwark's own JSON: {@code {"source","appliance","notifications":[…]}}. */
  static JsonObject plain(List<Notification> batch, ChannelConfig config) {
    JsonArray list = new JsonArray();
    for (Notification n : batch) {
      var f = n.finding();
      JsonObject finding =
          new JsonObject()
              .put("id", f.id())
              .put("kind", f.kind())
              .put("node", f.node().value())
              .put("gpu", f.gpu())
              .put("gpuUuid", f.gpuUuid())
              .put("severity", f.severity().name().toLowerCase(Locale.ROOT))
              .put("state", f.state().name().toLowerCase(Locale.ROOT))
              .put("firstSeen", f.firstSeen().toString())
              .put("lastSeen", f.lastSeen().toString())
              .put("resolvedAt", f.resolvedAt() == null ? null : f.resolvedAt().toString())
              .put("summary", f.summary())
              .put(
                  "evidence",
                  new JsonObject(new java.util.LinkedHashMap<>(new TreeMap<>(f.evidence()))))
              .put("recommendedAction", f.recommendedAction())
              .put("performanceFactor", f.performanceFactor());
      JsonObject one =
          new JsonObject()
              .put("id", n.id())
              .put("event", n.event().name().toLowerCase(Locale.ROOT))
              .put("at", n.at().toString())
              .put("subject", n.subject());
      if (!n.notice().isEmpty()) {
        one.put("notice", n.notice());
      }
      list.add(
          one.put(
                  "labels",
                  new JsonObject(new java.util.LinkedHashMap<>(new TreeMap<>(n.nodeLabels()))))
              .put("finding", finding));
    }
    return new JsonObject()
        .put("source", "bulwark")
        .put("appliance", config.appliance())
        .put("externalURL", config.externalUrl())
        .put("notifications", list);
  }
}
