package io.bulwark.notify.api;

import java.util.Objects;

/**
 * One setting a channel type reads: its key, what it means in an administrator's words, whether it
 * is required, and its default (empty for none).
 *
 * @param key e.g. {@code host}
 * @param description e.g. "the SIEM's syslog receiver, a host name or address"
 * @param required true if a channel of the type cannot work without it
 * @param defaultValue what applies when it is not set
 */
public record ChannelSetting(
    String key, String description, boolean required, String defaultValue) {

  public ChannelSetting {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(description, "description");
    defaultValue = Objects.requireNonNullElse(defaultValue, "");
  }

  /** A setting a channel must have. */
  public static ChannelSetting required(String key, String description) {
    return new ChannelSetting(key, description, true, "");
  }

  /** A setting with a default. */
  public static ChannelSetting optional(String key, String description, String defaultValue) {
    return new ChannelSetting(key, description, false, defaultValue);
  }
}
