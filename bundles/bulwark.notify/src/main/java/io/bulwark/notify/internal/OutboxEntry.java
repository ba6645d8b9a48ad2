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

  /** Returns the key that deduplicates: one waiting notification per channel and finding. */
  String dedupKey() {
    return channel + "\u0000" + notification.finding().id();
  }
}
