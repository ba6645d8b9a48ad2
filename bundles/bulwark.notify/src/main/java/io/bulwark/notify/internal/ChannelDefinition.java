package io.bulwark.notify.internal;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A channel as an administrator configured it: its name, type, settings, route, whether it is on,
 * whether a credential is kept for it in the secret store (under {@link #secretName()}), and who
 * changed it last. Stored in the {@code notify.channels} map.
 */
record ChannelDefinition(
    String name,
    String type,
    Map<String, String> settings,
    Route route,
    boolean enabled,
    boolean hasCredential,
    String updatedBy,
    Instant updatedAt) {
  static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,31}");

  ChannelDefinition {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "a channel's name is 1-32 of a-z, 0-9 and '-', starting with a letter, not '"
              + name
              + "'");
    }
    Objects.requireNonNull(type, "type");
    settings = Map.copyOf(settings);
    Objects.requireNonNull(route, "route");
    Objects.requireNonNull(updatedBy, "updatedBy");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  /** Returns where the channel's credential is kept in the secret store. */
  String secretName() {
    return secretName(name);
  }

  static String secretName(String channel) {
    return "notify.channel." + channel;
  }
}
