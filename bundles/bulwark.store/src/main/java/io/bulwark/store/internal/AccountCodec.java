package io.bulwark.store.internal;

import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserAccount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns local accounts and API tokens into the bytes the store keeps, and back, in the versioned
 * format of {@link RecordCodec}. Only hashes are stored: never a password or a token secret.
 */
final class AccountCodec {
  private static final int ACCOUNT_FORMAT = 1;
  private static final int TOKEN_FORMAT = 1;

  private AccountCodec() {}

  static byte[] encode(UserAccount a) {
    return RecordCodec.write(
        out -> {
          out.writeByte(ACCOUNT_FORMAT);
          out.writeUTF(a.name());
          out.writeUTF(a.role().name());
          out.writeUTF(a.passwordHash());
          out.writeBoolean(a.mustChangePassword());
          RecordCodec.writeInstant(out, a.passwordChangedAt());
          out.writeInt(a.recentFailures().size());
          for (Instant failure : a.recentFailures()) {
            RecordCodec.writeInstant(out, failure);
          }
          RecordCodec.writeInstant(out, a.lockedUntil());
          out.writeBoolean(a.disabled());
        });
  }

  static UserAccount decodeAccount(String key, byte[] bytes) {
    return RecordCodec.read(
        key,
        bytes,
        in -> {
          RecordCodec.checkFormat(key, in.readUnsignedByte(), ACCOUNT_FORMAT);
          String name = in.readUTF();
          Role role = Role.valueOf(in.readUTF());
          String hash = in.readUTF();
          boolean mustChange = in.readBoolean();
          Instant changed = RecordCodec.readInstant(in);
          int count = in.readInt();
          List<Instant> failures = new ArrayList<>(count);
          for (int i = 0; i < count; i++) {
            failures.add(RecordCodec.readInstant(in));
          }
          Instant lockedUntil = RecordCodec.readInstant(in);
          boolean disabled = in.readBoolean();
          return new UserAccount(
              name, role, hash, mustChange, changed, failures, lockedUntil, disabled);
        });
  }

  static byte[] encode(ApiToken t) {
    return RecordCodec.write(
        out -> {
          out.writeByte(TOKEN_FORMAT);
          out.writeUTF(t.id());
          out.writeUTF(t.name());
          out.writeUTF(t.role().name());
          out.writeUTF(t.secretHash());
          out.writeUTF(t.createdBy());
          RecordCodec.writeInstant(out, t.createdAt());
          RecordCodec.writeInstant(out, t.expiresAt());
          out.writeBoolean(t.revoked());
        });
  }

  static ApiToken decodeToken(String key, byte[] bytes) {
    return RecordCodec.read(
        key,
        bytes,
        in -> {
          RecordCodec.checkFormat(key, in.readUnsignedByte(), TOKEN_FORMAT);
          return new ApiToken(
              in.readUTF(),
              in.readUTF(),
              Role.valueOf(in.readUTF()),
              in.readUTF(),
              in.readUTF(),
              RecordCodec.readInstant(in),
              RecordCodec.readInstant(in),
              in.readBoolean());
        });
  }
}
