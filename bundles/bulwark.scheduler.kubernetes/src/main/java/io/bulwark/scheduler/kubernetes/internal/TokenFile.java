package io.bulwark.scheduler.kubernetes.internal;

import io.fabric8.kubernetes.client.OAuthTokenProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bearer token in a file, read again for every request so that a rotated token (a projected
 * service-account token renews hourly) is used without a restart. The token never appears in a
 * message or log, only the file's path. Given to the client by {@link ClusterClient}.
 */
final class TokenFile implements OAuthTokenProvider {
  private final Path file;

  TokenFile(Path file) {
    this.file = file;
  }

  @Override
  public String getToken() {
    String token;
    try {
      token = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new Unreadable(
          "cannot read the token file "
              + file
              + " ("
              + e.getClass().getSimpleName()
              + "); check that it exists and that the Bulwark service may read it");
    }
    if (token.isEmpty()) {
      throw new Unreadable(
          "the token file " + file + " is empty; put the account's bearer token in it");
    }
    return token;
  }

  /** The token file could not be used; the message names the file, never a secret. */
  static final class Unreadable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unreadable(String message) {
      super(message);
    }
  }
}
