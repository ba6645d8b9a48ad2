package io.bulwark.web.api;

import org.osgi.annotation.versioning.ProviderType;

/**
 * Where an {@link EventTopic} publishes: every connected client its roles admit receives the event.
 * Provided by the admin plane. Thread-safe; returns at once (a client that falls too far behind is
 * dropped, never waited for).
 */
@ProviderType
public interface EventSink {

  /** Sends {@code json} (one JSON value, which must not contain a line break) as an event. */
  void publish(String json);
}
