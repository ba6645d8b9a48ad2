package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserAccount;
import io.bulwark.store.internal.MapDbRecordStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Accounts and tokens on the real store, across a reopen. */
class StoreAccountsTest {
  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

  @TempDir Path dir;

  @Test
  void accountsPersistWithTheirLockoutStateAcrossAReopen() {
    UserAccount alice =
        new UserAccount(
            "alice",
            Role.OPERATOR,
            "pbkdf2-sha512$210000$c2FsdA$aGFzaA",
            true,
            T0,
            List.of(T0.plusSeconds(1), T0.plusSeconds(2)),
            T0.plusSeconds(900),
            false);
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreUsers users = new StoreUsers(store);
      users.save(alice);
      users.save(
          new UserAccount(
              "admin", Role.ADMIN, "pbkdf2-sha512$1$x$y", false, T0, List.of(), null, false));
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreUsers users = new StoreUsers(store);
      assertThat(users.user("alice")).contains(alice);
      assertThat(users.users()).extracting(UserAccount::name).containsExactly("admin", "alice");
      assertThat(users.delete("alice")).isTrue();
      assertThat(users.delete("alice")).isFalse();
      assertThat(users.user("alice")).isEmpty();
    }
  }

  @Test
  void tokensPersistNewestFirstAndRevocationSticks() {
    ApiToken older =
        new ApiToken(
            "tok-1", "ci", Role.AUDITOR, "hmac$abc", "admin", T0, T0.plusSeconds(86400), false);
    ApiToken newer =
        new ApiToken(
            "tok-2",
            "slurm",
            Role.OPERATOR,
            "hmac$def",
            "admin",
            T0.plusSeconds(5),
            T0.plusSeconds(86400),
            false);
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreTokens tokens = new StoreTokens(store);
      tokens.save(older);
      tokens.save(newer);
      tokens.save(
          new ApiToken(
              "tok-1", "ci", Role.AUDITOR, "hmac$abc", "admin", T0, T0.plusSeconds(86400), true));
    }
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreTokens tokens = new StoreTokens(store);
      assertThat(tokens.tokens()).extracting(ApiToken::id).containsExactly("tok-2", "tok-1");
      assertThat(tokens.token("tok-1").orElseThrow().validAt(T0.plusSeconds(10))).isFalse();
      assertThat(tokens.token("tok-2").orElseThrow().validAt(T0.plusSeconds(10))).isTrue();
    }
  }
}
