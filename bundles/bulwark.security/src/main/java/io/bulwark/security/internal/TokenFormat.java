package io.bulwark.security.internal;

import io.bulwark.api.security.ApiToken;
import io.bulwark.api.security.Role;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * How an API token is stored. Version 1: id, name, role, the secret's hash (never the secret), who
 * created it, created at, expires at, revoked.
 */
final class TokenFormat implements RecordFormat<ApiToken> {
  static final TokenFormat INSTANCE = new TokenFormat();
  private static final int VERSION = 1;

  @Override
  public int version() {
    return VERSION;
  }

  @Override
  public void write(ApiToken t, DataOutputStream out) throws IOException {
    out.writeUTF(t.id());
    out.writeUTF(t.name());
    out.writeUTF(t.role().name());
    out.writeUTF(t.secretHash());
    out.writeUTF(t.createdBy());
    Records.writeInstant(out, t.createdAt());
    Records.writeInstant(out, t.expiresAt());
    out.writeBoolean(t.revoked());
  }

  @Override
  public ApiToken read(int version, DataInputStream in) throws IOException {
    if (version != VERSION) {
      throw Records.unknownVersion("API token", version, VERSION);
    }
    return new ApiToken(
        in.readUTF(),
        in.readUTF(),
        Role.valueOf(in.readUTF()),
        in.readUTF(),
        in.readUTF(),
        Records.readInstant(in),
        Records.readInstant(in),
        in.readBoolean());
  }
}
