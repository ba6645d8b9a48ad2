package io.bulwark.notify.internal;

import io.bulwark.notify.api.Notification;
import java.util.Objects;

/**
 * A notification that waits for its channel, under its place in the outbox ({@code seq}, the key of
 * the {@code notify.outbox} map: delivery order).
 */
record OutboxEntry(long seq, String channel, Notification notification) {

  OutboxEntry {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(notification, "notification");
  }

  /**
   * Returns the key that deduplicates: one waiting notification per channel and finding, and one
   * per channel and notice (a notice never stands in for the finding's own news, nor they for it).
   */
  String dedupKey() {
    return notification.event() == Notification.Event.NOTICE
        ? channel + "\u0000notice\u0000" + notification.id()
        : channel + "\u0000" + notification.finding().id();
  }
}
