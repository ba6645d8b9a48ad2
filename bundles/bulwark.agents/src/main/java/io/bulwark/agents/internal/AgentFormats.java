package io.bulwark.agents.internal;

import io.bulwark.api.agent.AgentRecord;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;

/** The store maps of the agents bundle: enrolled agents and outstanding enrolment tokens. */
final class AgentFormats {
  /** Enrolled agents by node name. */
  static final StoreMap<String, AgentRecord> AGENTS =
      StoreMap.byName("agents.records", new AgentFormat());

  /** Outstanding enrolment tokens by the SHA-384 of the token (never the token itself). */
  static final StoreMap<String, Token> TOKENS = StoreMap.byName("agents.tokens", new TokenFormat());

  /** An enrolment token: for which node, until when, issued by whom. */
  record Token(String node, Instant expiresAt, String issuedBy) {}

  private AgentFormats() {}

  private static final class AgentFormat implements RecordFormat<AgentRecord> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(AgentRecord a, DataOutputStream out) throws IOException {
      out.writeUTF(a.node());
      out.writeUTF(a.endpoint());
      out.writeUTF(a.serial());
      out.writeUTF(a.fingerprint());
      Records.writeInstant(out, a.enrolledAt());
      Records.writeInstant(out, a.expiresAt());
      Records.writeInstant(out, a.revokedAt());
      out.writeUTF(a.revokedBy());
    }

    @Override
    public AgentRecord read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("agent record", version, 1);
      }
      return new AgentRecord(
          in.readUTF(),
          in.readUTF(),
          in.readUTF(),
          in.readUTF(),
          Records.readInstant(in),
          Records.readInstant(in),
          Records.readInstant(in),
          in.readUTF());
    }
  }

  private static final class TokenFormat implements RecordFormat<Token> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(Token t, DataOutputStream out) throws IOException {
      out.writeUTF(t.node());
      Records.writeInstant(out, t.expiresAt());
      out.writeUTF(t.issuedBy());
    }

    @Override
    public Token read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("agent enrolment token", version, 1);
      }
      return new Token(in.readUTF(), Records.readInstant(in), in.readUTF());
    }
  }
}
