package io.bulwark.security.internal;

import io.bulwark.api.security.Role;
import io.bulwark.api.security.UserAccount;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How a local account is stored. Version 1: name, role, password hash (never the password), must
 * change the password, when it was changed, the recent failures, locked until, disabled.
 */
final class AccountFormat implements RecordFormat<UserAccount> {
  static final AccountFormat INSTANCE = new AccountFormat();
  private static final int VERSION = 1;

  @Override
  public int version() {
    return VERSION;
  }

  @Override
  public void write(UserAccount a, DataOutputStream out) throws IOException {
    out.writeUTF(a.name());
    out.writeUTF(a.role().name());
    out.writeUTF(a.passwordHash());
    out.writeBoolean(a.mustChangePassword());
    Records.writeInstant(out, a.passwordChangedAt());
    out.writeInt(a.recentFailures().size());
    for (Instant failure : a.recentFailures()) {
      Records.writeInstant(out, failure);
    }
    Records.writeInstant(out, a.lockedUntil());
    out.writeBoolean(a.disabled());
  }

  @Override
  public UserAccount read(int version, DataInputStream in) throws IOException {
    if (version != VERSION) {
      throw Records.unknownVersion("account", version, VERSION);
    }
    String name = in.readUTF();
    Role role = Role.valueOf(in.readUTF());
    String hash = in.readUTF();
    boolean mustChange = in.readBoolean();
    Instant changed = Records.readInstant(in);
    int count = in.readInt();
    List<Instant> failures = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      failures.add(Records.readInstant(in));
    }
    Instant lockedUntil = Records.readInstant(in);
    boolean disabled = in.readBoolean();
    return new UserAccount(name, role, hash, mustChange, changed, failures, lockedUntil, disabled);
  }
}
