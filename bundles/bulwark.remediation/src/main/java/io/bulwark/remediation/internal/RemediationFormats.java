package io.bulwark.remediation.internal;

import io.bulwark.api.remediation.Guardrails;
import io.bulwark.api.remediation.Policy;
import io.bulwark.api.remediation.Run;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import io.vertx.core.json.JsonObject;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.function.Function;

/** The store maps of remediation: runs, policies (current and every version), guardrails. */
final class RemediationFormats {
  /** Runs by id. */
  static final StoreMap<String, Run> RUNS =
      StoreMap.byName("remediation.runs", json("remediation run", RunJson::run, RunJson::run));

  /** The current version of each policy, by id. */
  static final StoreMap<String, Policy> POLICIES =
      StoreMap.byName(
          "remediation.policies",
          json("remediation policy", RunJson::policy, RemediationFormats::policy));

  /** Every version of every policy, by {@code id@000007}. */
  static final StoreMap<String, Policy> POLICY_VERSIONS =
      StoreMap.byName(
          "remediation.policy-versions",
          json("remediation policy", RunJson::policy, RemediationFormats::policy));

  /** The guardrails and switches, under {@link #GUARDRAILS_KEY}. */
  static final StoreMap<String, Guardrails> SETTINGS =
      StoreMap.byName(
          "remediation.settings",
          json(
              "remediation guardrails",
              RunJson::guardrails,
              j -> RunJson.guardrails(j, Guardrails.defaults())));

  static final String GUARDRAILS_KEY = "guardrails";

  private RemediationFormats() {}

  static String versionKey(String id, int version) {
    return id + "@" + String.format("%06d", version);
  }

  private static Policy policy(JsonObject j) {
    return RunJson.policy(
        j,
        j.getString("id"),
        j.getInteger("version", 1),
        j.getString("updatedBy", ""),
        Instant.parse(j.getString("updatedAt")));
  }

  /** A record kept as one JSON document (version 1). */
  private static <T> RecordFormat<T> json(
      String what, Function<T, JsonObject> write, Function<JsonObject, T> read) {
    return new RecordFormat<>() {
      @Override
      public int version() {
        return 1;
      }

      @Override
      public void write(T value, DataOutputStream out) throws IOException {
        byte[] bytes = write.apply(value).encode().getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
      }

      @Override
      public T read(int version, DataInputStream in) throws IOException {
        if (version != 1) {
          throw Records.unknownVersion(what, version, 1);
        }
        int n = in.readInt();
        if (n < 0 || n > 16 * 1024 * 1024) {
          throw new IOException(what + " record of " + n + " bytes: damaged");
        }
        byte[] bytes = in.readNBytes(n);
        try {
          return read.apply(new JsonObject(new String(bytes, StandardCharsets.UTF_8)));
        } catch (RuntimeException e) {
          throw new IOException(what + " record cannot be read: " + e.getMessage(), e);
        }
      }
    };
  }
}
