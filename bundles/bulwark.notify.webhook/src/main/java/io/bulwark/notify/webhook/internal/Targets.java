package io.bulwark.notify.webhook.internal;

import io.bulwark.notify.api.ChannelConfig;
import io.bulwark.notify.api.ClientTls;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** Reads a channel's URL and TLS settings, the same way for every HTTP channel type. */
final class Targets {
  private Targets() {}

  /**
   * Returns the poster for {@code url} (a setting's value, {@code path} appended).
   *
   * @throws IllegalArgumentException naming the setting if the URL or CA is unusable, or the URL is
   *     http without {@code allowPlaintext}
   */
  static HttpPoster poster(ChannelConfig config, String path) {
    String text = config.required("url");
    URI url;
    try {
      url = new URI(text.replaceAll("/+$", "") + path);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "the channel '" + config.name() + "' setting 'url' is not a URL: " + e.getMessage());
    }
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (url.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
      throw new IllegalArgumentException(
          "the channel '" + config.name() + "' setting 'url' must be an https:// URL, not " + text);
    }
    ClientTls tls = null;
    if (scheme.equals("https")) {
      tls =
          ClientTls.trusting(
              config.setting("caCertificate", null),
              "the channel '" + config.name() + "' setting 'caCertificate'");
    } else if (!config.flag("allowPlaintext", false)) {
      throw new IllegalArgumentException(
          "the channel '"
              + config.name()
              + "' posts to http://, which carries findings and its token unencrypted: use"
              + " https://, or set 'allowPlaintext' to true to allow it");
    }
    byte[] bearer = config.credentialCopy().orElse(null);
    try {
      return new HttpPoster(url, tls, bearer, config.name());
    } finally {
      if (bearer != null) {
        java.util.Arrays.fill(bearer, (byte) 0);
      }
    }
  }
}
