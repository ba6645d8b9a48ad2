package io.bulwark.notify.webhook.internal;

import io.bulwark.api.security.CryptoModule;
import io.bulwark.notify.api.ChannelConfig;
import io.bulwark.notify.api.ChannelSender;
import io.bulwark.notify.api.ChannelSetting;
import io.bulwark.notify.api.ChannelType;
import io.bulwark.notify.api.DeliveryException;
import io.bulwark.notify.api.Notification;
import io.vertx.core.json.JsonArray;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The {@code alertmanager} channel type: sends findings to the site's Alertmanager as Prometheus
 * does ({@code POST /api/v2/alerts}), so its routes, silences and receivers apply. Open findings
 * are sent again every minute with an end four minutes ahead (Alertmanager resolves an alert that
 * nobody repeats, so a Bulwark that stops does not leave alerts firing forever); a resolution is
 * sent with its end time.
 */
@Component(service = ChannelType.class)
public final class AlertmanagerChannel implements ChannelType {
  static final Duration REPEAT = Duration.ofMinutes(1);

  /** The crypto module is referenced so that BCJSSE is installed before a channel opens. */
  @Activate
  public AlertmanagerChannel(@Reference CryptoModule crypto) {}

  AlertmanagerChannel() {}

  @Override
  public String type() {
    return "alertmanager";
  }

  @Override
  public List<ChannelSetting> settings() {
    return List.of(
        ChannelSetting.required("url", "The Alertmanager, e.g. https://alertmanager.example:9093"),
        ChannelSetting.optional(
            "caCertificate",
            "The CA certificate(s) that signed its certificate, in PEM (for https)",
            ""),
        ChannelSetting.optional(
            "allowPlaintext",
            "true to allow an http:// URL: findings then cross the network readable",
            "false"));
  }

  @Override
  public ChannelSender open(ChannelConfig config) {
    HttpPoster poster = Targets.poster(config, "/api/v2/alerts");
    return new ChannelSender() {
      @Override
      public void send(List<Notification> batch) throws DeliveryException {
        Instant ends = Instant.now().plus(REPEAT.multipliedBy(4));
        JsonArray alerts = new JsonArray();
        for (Notification n : batch) {
          alerts.add(Alerts.postable(n, config, ends));
        }
        poster.post(alerts.encode());
      }

      @Override
      public int maxBatch() {
        return 64;
      }

      @Override
      public Duration refreshEvery() {
        return REPEAT;
      }

      @Override
      public void close() {
        poster.close();
      }
    };
  }
}
