package io.bulwark.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * Where the appliance is and how to trust it and authenticate to it, from the command line and the
 * environment: {@code --url} or {@code BULWARK_URL} (https only), {@code --ca} or {@code
 * --fingerprint} (one is required: the appliance's certificate is always verified), {@code
 * --token-file} or {@code BULWARK_TOKEN} (never the token itself on the command line, where the
 * process list shows it).
 */
final class Connection {
  static final String URL_VARIABLE = "BULWARK_URL";
  static final String TOKEN_VARIABLE = "BULWARK_TOKEN";

  private Connection() {}

  /**
   * Returns a client of the appliance the command line names.
   *
   * @throws UsageException if the URL, the trust or the token is missing or unusable
   * @throws GeneralSecurityException if FIPS TLS cannot be set up
   */
  static ApiClient open(CommandLine line, Map<String, String> env, String userAgent)
      throws UsageException, GeneralSecurityException {
    URI url = url(line.value("--url").or(() -> variable(env, URL_VARIABLE)));
    Optional<String> ca = line.value("--ca");
    Optional<String> fingerprint = line.value("--fingerprint");
    if (ca.isPresent() && fingerprint.isPresent()) {
      throw new UsageException("give --ca or --fingerprint, not both");
    }
    if (ca.isEmpty() && fingerprint.isEmpty()) {
      throw new UsageException(
          "the appliance's certificate must be verified: give --ca FILE (the PEM certificate of"
              + " the CA that issued it) or --fingerprint AA:BB:… (the SHA-256 fingerprint its"
              + " console prints for its self-signed certificate)");
    }
    byte[] pin = fingerprint.isPresent() ? Trust.fingerprint(fingerprint.get()) : null;
    String token = token(line.value("--token-file"), env);
    SecureRandom random = FipsProviders.install();
    SSLContext ssl =
        pin != null ? Trust.pinned(pin, random) : Trust.authorities(Path.of(ca.get()), random);
    return new ApiClient(url, token, ssl, userAgent);
  }

  private static Optional<String> variable(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
  }

  static URI url(Optional<String> given) throws UsageException {
    String text =
        given.orElseThrow(
            () ->
                new UsageException(
                    "no appliance: give --url https://HOST:8443 or set " + URL_VARIABLE));
    URI uri;
    try {
      uri = new URI(text.strip());
    } catch (URISyntaxException e) {
      throw new UsageException("--url '" + Text.clean(text) + "' is not a URL: " + e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme.equals("http")) {
      throw new UsageException(
          "--url must be https://…: the appliance serves its API over TLS only, and the token"
              + " must not travel in the clear");
    }
    if (!scheme.equals("https") || uri.getHost() == null) {
      throw new UsageException(
          "--url must be https://HOST:PORT (e.g. https://bulwark.example:8443), not '"
              + Text.clean(text)
              + "'");
    }
    if (uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new UsageException(
          "--url must be https://HOST:PORT, without user, query or fragment: '"
              + Text.clean(text)
              + "'");
    }
    return uri;
  }

  static String token(Optional<String> file, Map<String, String> env) throws UsageException {
    String token;
    String source;
    if (file.isPresent()) {
      source = "the token file " + file.get();
      try {
        token = Files.readString(Path.of(file.get()), StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        throw UsageException.cannot("read " + source, e);
      }
    } else {
      source = TOKEN_VARIABLE;
      token =
          variable(env, TOKEN_VARIABLE)
              .orElseThrow(
                  () ->
                      new UsageException(
                          "no API token: give --token-file FILE or set "
                              + TOKEN_VARIABLE
                              + " (an admin issues tokens)"));
    }
    if (token.isEmpty()) {
      throw new UsageException(source + " is empty");
    }
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c <= 0x20 || c >= 0x7f) {
        throw new UsageException(
            source
                + " does not hold one API token (it has spaces, line breaks or other characters)");
      }
    }
    return token;
  }
}
