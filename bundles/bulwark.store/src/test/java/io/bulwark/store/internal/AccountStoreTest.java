package io.bulwark.store.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserAccount;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccountStoreTest {
  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

  @TempDir Path dir;

  @Test
  void accountsPersistWithTheirLockoutStateAcrossReopen() {
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
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      store.save(alice);
      store.save(
          new UserAccount(
              "admin", Role.ADMIN, "pbkdf2-sha512$1$x$y", false, T0, List.of(), null, false));
    }
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      assertThat(store.user("alice")).contains(alice);
      assertThat(store.users()).extracting(UserAccount::name).containsExactly("admin", "alice");
      assertThat(store.delete("alice")).isTrue();
      assertThat(store.delete("alice")).isFalse();
      assertThat(store.user("alice")).isEmpty();
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
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      store.save(older);
      store.save(newer);
      store.save(
          new ApiToken(
              "tok-1", "ci", Role.AUDITOR, "hmac$abc", "admin", T0, T0.plusSeconds(86400), true));
    }
    try (MapDbStore store = new MapDbStore(new StoreOptions(dir))) {
      assertThat(store.tokens()).extracting(ApiToken::id).containsExactly("tok-2", "tok-1");
      assertThat(store.token("tok-1")).hasValueSatisfying(t -> assertThat(t.revoked()).isTrue());
      assertThat(store.token("tok-1").orElseThrow().validAt(T0.plusSeconds(10))).isFalse();
      assertThat(store.token("tok-2").orElseThrow().validAt(T0.plusSeconds(10))).isTrue();
    }
  }
}
