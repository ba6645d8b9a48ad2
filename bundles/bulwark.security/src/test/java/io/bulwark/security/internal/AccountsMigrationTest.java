package io.bulwark.security.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserAccount;
import io.bulwark.store.internal.MapDbRecordStore;
import io.bulwark.testing.LegacyStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data folder written by Bulwark 0.1 opens with its accounts (their roles, failures and locks)
 * and its API token as they were, so that nobody is locked out by an upgrade.
 */
class AccountsMigrationTest {
  @TempDir Path dir;

  @Test
  void theAccountsAndTokensOfA01DataFolderReadAsTheyWere() {
    LegacyStore.unpack(dir);
    try (MapDbRecordStore store = MapDbRecordStore.inFolder(dir)) {
      StoreUsers users = new StoreUsers(store);
      assertThat(users.users()).extracting(UserAccount::name).containsExactly("admin", "olga");
      UserAccount admin = users.user("admin").orElseThrow();
      assertThat(admin.role()).isEqualTo(Role.ADMIN);
      assertThat(admin.recentFailures()).hasSize(1);
      assertThat(admin.passwordHash()).isEqualTo("$pbkdf2-sha512$i=210000$c2FsdA$aGFzaA");
      UserAccount olga = users.user("olga").orElseThrow();
      assertThat(olga.role()).isEqualTo(Role.OPERATOR);
      assertThat(olga.mustChangePassword()).isTrue();
      assertThat(olga.lockedUntil()).isNotNull();

      ApiToken token = new StoreTokens(store).token("0123456789abcdef01234567").orElseThrow();
      assertThat(token.name()).isEqualTo("ci");
      assertThat(token.role()).isEqualTo(Role.OPERATOR);
      assertThat(token.createdBy()).isEqualTo("admin");
      assertThat(token.validAt(token.createdAt().plusSeconds(3600))).isTrue();
      assertThat(token.validAt(token.createdAt().plusSeconds(2 * 86400))).isFalse();

      users.save(
          new UserAccount(
              "olga",
              Role.OPERATOR,
              olga.passwordHash(),
              false,
              Instant.parse("2026-12-01T08:00:00Z"),
              List.of(),
              null,
              false));
      assertThat(users.user("olga").orElseThrow().mustChangePassword()).isFalse();
    }
  }
}
