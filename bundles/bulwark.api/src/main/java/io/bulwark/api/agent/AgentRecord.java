package io.bulwark.api.agent;

import java.time.Instant;
import java.util.Objects;

/**
 * A node agent the appliance issued a certificate to.
 *
 * @param node the node's host name (the certificate's CN)
 * @param endpoint where its action channel listens, {@code host:port}
 * @param serial the certificate's serial number (hex)
 * @param fingerprint the certificate's SHA-256 fingerprint (hex)
 * @param enrolledAt when the certificate was issued
 * @param expiresAt when it expires
 * @param revokedAt when an administrator revoked it, or null
 * @param revokedBy who revoked it, or ""
 */
public record AgentRecord(
    String node,
    String endpoint,
    String serial,
    String fingerprint,
    Instant enrolledAt,
    Instant expiresAt,
    Instant revokedAt,
    String revokedBy) {

  /** Checks the fields. */
  public AgentRecord {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(serial, "serial");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(enrolledAt, "enrolledAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    revokedBy = revokedBy == null ? "" : revokedBy;
  }

  /** Returns true if the certificate was revoked. */
  public boolean revoked() {
    return revokedAt != null;
  }

  /** Returns true if the appliance may talk to this agent at {@code now}. */
  public boolean usable(Instant now) {
    return !revoked() && now.isBefore(expiresAt);
  }
}
