package io.bulwark.notify.api;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a channel type opens a sender with: the channel's name, its settings as the administrator
 * gave them, its credential (a password or bearer token, read from the sealed secret store; never
 * in the settings), and how the appliance names itself to receivers.
 *
 * @param name the channel's name, e.g. {@code siem}
 * @param settings the channel's settings by key (copied)
 * @param credential the credential, or null for none
 * @param appliance the appliance's name in messages (syslog HOSTNAME, mail sender name)
 * @param externalUrl the admin plane's URL as receivers should link to it, e.g. {@code
 *     https://bulwark.example:8443}
 */
public record ChannelConfig(
    String name,
    Map<String, String> settings,
    byte[] credential,
    String appliance,
    String externalUrl) {

  public ChannelConfig {
    Objects.requireNonNull(name, "name");
    settings = Map.copyOf(settings);
    credential = credential == null ? null : credential.clone();
    Objects.requireNonNull(appliance, "appliance");
    Objects.requireNonNull(externalUrl, "externalUrl");
  }

  /** Returns the setting {@code key}, or {@code fallback} when it is absent or blank. */
  public String setting(String key, String fallback) {
    String v = settings.get(key);
    return v == null || v.isBlank() ? fallback : v.trim();
  }

  /**
   * Returns the setting {@code key}.
   *
   * @throws IllegalArgumentException naming the channel and the setting if it is absent or blank
   */
  public String required(String key) {
    String v = setting(key, null);
    if (v == null) {
      throw new IllegalArgumentException(
          "the channel '" + name + "' needs the setting '" + key + "'");
    }
    return v;
  }

  /**
   * Returns the whole-number setting {@code key} within [min, max], or {@code fallback}.
   *
   * @throws IllegalArgumentException naming the setting if it is not such a number
   */
  public int number(String key, int fallback, int min, int max) {
    String v = setting(key, null);
    if (v == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "the channel '"
            + name
            + "' setting '"
            + key
            + "' must be a whole number from "
            + min
            + " to "
            + max
            + ", not '"
            + v
            + "'");
  }

  /**
   * Returns the yes/no setting {@code key}, or {@code fallback}.
   *
   * @throws IllegalArgumentException naming the setting if it is neither true nor false
   */
  public boolean flag(String key, boolean fallback) {
    String v = setting(key, null);
    if (v == null) {
      return fallback;
    }
    return switch (v.toLowerCase(java.util.Locale.ROOT)) {
      case "true", "yes" -> true;
      case "false", "no" -> false;
      default ->
          throw new IllegalArgumentException(
              "the channel '"
                  + name
                  + "' setting '"
                  + key
                  + "' must be true or false, not '"
                  + v
                  + "'");
    };
  }

  /** Returns a copy of the credential, or empty. The caller should clear it after use. */
  public Optional<byte[]> credentialCopy() {
    return Optional.ofNullable(credential).map(byte[]::clone);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChannelConfig c
        && name.equals(c.name)
        && settings.equals(c.settings)
        && Arrays.equals(credential, c.credential)
        && appliance.equals(c.appliance)
        && externalUrl.equals(c.externalUrl);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, settings, Arrays.hashCode(credential), appliance, externalUrl);
  }

  @Override
  public String toString() {
    return "ChannelConfig[name="
        + name
        + ", settings="
        + settings
        + ", credential="
        + (credential == null ? "none" : "(set)")
        + "]";
  }
}
