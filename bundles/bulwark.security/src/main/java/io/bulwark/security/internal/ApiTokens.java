package io.bulwark.security.internal;

import io.bulwark.api.audit.AuditOutcome;
import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.IssuedToken;
import io.bulwark.api.security.Principal;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.TokenRepository;
import io.bulwark.api.store.StoreUnavailableException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * API tokens for automation: issues {@code bwk_<id>_<secret>} tokens (a 96-bit hex id, a 256-bit
 * base64url secret), stores only the peppered HMAC of the secret, checks presented tokens in
 * constant time, and revokes them; creation and revocation are audited before they take effect.
 */
final class ApiTokens {
  /** How every token string starts. */
  static final String PREFIX = "bwk_";

  private static final int ID_BYTES = 12;
  private static final int SECRET_BYTES = 32;
  private static final int LONGEST_NAME = 64;
  private static final int LONGEST_TOKEN = 128;
  private static final int RECENT_TOKENS = 1024;
  private static final Pattern ID = Pattern.compile("[0-9a-f]{" + (2 * ID_BYTES) + "}");
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final TokenRepository tokens;
  private final TokenPepper pepper;
  private final AuditTrail audit;
  private final SecureRandom random;
  private final Clock clock;
  private final Duration maxValidity;

  /**
   * Tokens that authenticated lately, by id, to recognise them while the store is not there (its
   * bundle being updated); a token revoked through this component is dropped from it at once.
   */
  private final Map<String, ApiToken> recent =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ApiToken> eldest) {
          return size() > RECENT_TOKENS;
        }
      };

  ApiTokens(
      TokenRepository tokens,
      TokenPepper pepper,
      AuditTrail audit,
      SecureRandom random,
      Clock clock,
      Duration maxValidity) {
    this.tokens = tokens;
    this.pepper = pepper;
    this.audit = audit;
    this.random = random;
    this.clock = clock;
    this.maxValidity = maxValidity;
  }

  IssuedToken create(String actor, String name, Role role, Duration validity, String source) {
    Objects.requireNonNull(role, "role");
    String label = name == null ? "" : name.strip();
    if (label.isEmpty() || label.length() > LONGEST_NAME || label.chars().anyMatch(c -> c < 0x20)) {
      throw new IllegalArgumentException(
          "a token name must be 1 to " + LONGEST_NAME + " printable characters");
    }
    if (validity == null || validity.isNegative() || validity.isZero()) {
      throw new IllegalArgumentException("a token's validity must be positive, not " + validity);
    }
    Duration capped = validity.compareTo(maxValidity) > 0 ? maxValidity : validity;
    String id = newId();
    byte[] secret = new byte[SECRET_BYTES];
    random.nextBytes(secret);
    Instant now = clock.instant();
    ApiToken token =
        new ApiToken(id, label, role, pepper.hash(secret), actor, now, now.plus(capped), false);
    audit.record(
        actor,
        source,
        "token.create",
        id,
        AuditOutcome.SUCCESS,
        Map.of(
            "name", label,
            "role", role.name(),
            "expiresAt", token.expiresAt().toString()));
    tokens.save(token);
    return new IssuedToken(PREFIX + id + "_" + BASE64URL.encodeToString(secret), token);
  }

  Optional<Principal> authenticate(String bearer) {
    if (bearer == null || bearer.length() > LONGEST_TOKEN || !bearer.startsWith(PREFIX)) {
      return Optional.empty();
    }
    int split = bearer.indexOf('_', PREFIX.length());
    if (split < 0) {
      return Optional.empty();
    }
    String id = bearer.substring(PREFIX.length(), split);
    byte[] secret;
    try {
      secret = Base64.getUrlDecoder().decode(bearer.substring(split + 1));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (!ID.matcher(id).matches() || secret.length != SECRET_BYTES) {
      return Optional.empty();
    }
    byte[] presented = pepper.hash(secret).getBytes(StandardCharsets.US_ASCII);
    Optional<ApiToken> stored = lookUp(id);
    byte[] expected =
        stored.map(t -> t.secretHash().getBytes(StandardCharsets.US_ASCII)).orElse(new byte[0]);
    boolean matches = MessageDigest.isEqual(presented, expected);
    if (!matches || !stored.get().validAt(clock.instant())) {
      return Optional.empty();
    }
    ApiToken token = stored.get();
    return Optional.of(new Principal(token.id(), token.role(), Principal.Kind.TOKEN));
  }

  /**
   * Revokes every valid token {@code creator} created, each audited as {@code token.revoke} with
   * the reason; returns how many.
   */
  int revokeCreatedBy(String actor, String creator, String source, String reason) {
    int revoked = 0;
    for (ApiToken t : tokens.tokens()) {
      if (t.createdBy().equals(creator) && !t.revoked()) {
        audit.record(
            actor,
            source,
            "token.revoke",
            t.id(),
            AuditOutcome.SUCCESS,
            Map.of("name", t.name(), "reason", reason));
        tokens.save(revoked(t));
        forget(t.id());
        revoked++;
      }
    }
    return revoked;
  }

  private static ApiToken revoked(ApiToken t) {
    return new ApiToken(
        t.id(),
        t.name(),
        t.role(),
        t.secretHash(),
        t.createdBy(),
        t.createdAt(),
        t.expiresAt(),
        true);
  }

  /**
   * Returns the stored token, or while the store refuses (its bundle is being updated) the one
   * remembered from a recent authentication.
   *
   * @throws StoreUnavailableException if the store refuses and the token is not remembered
   */
  private Optional<ApiToken> lookUp(String id) {
    try {
      Optional<ApiToken> stored = tokens.token(id);
      synchronized (recent) {
        if (stored.isPresent() && stored.get().validAt(clock.instant())) {
          recent.put(id, stored.get());
        } else {
          recent.remove(id);
        }
      }
      return stored;
    } catch (StoreUnavailableException e) {
      ApiToken remembered;
      synchronized (recent) {
        remembered = recent.get(id);
      }
      if (remembered == null) {
        throw e;
      }
      return Optional.of(remembered);
    }
  }

  private void forget(String id) {
    synchronized (recent) {
      recent.remove(id);
    }
  }

  boolean revoke(String actor, String id, String source) {
    Optional<ApiToken> stored = id == null ? Optional.empty() : tokens.token(id);
    if (stored.isEmpty()) {
      return false;
    }
    ApiToken t = stored.get();
    audit.record(
        actor,
        source,
        "token.revoke",
        t.id(),
        AuditOutcome.SUCCESS,
        Map.of("name", t.name(), "alreadyRevoked", String.valueOf(t.revoked())));
    tokens.save(revoked(t));
    forget(t.id());
    return true;
  }

  private String newId() {
    byte[] bytes = new byte[ID_BYTES];
    String id;
    do {
      random.nextBytes(bytes);
      id = HexFormat.of().formatHex(bytes);
    } while (tokens.token(id).isPresent());
    return id;
  }
}
