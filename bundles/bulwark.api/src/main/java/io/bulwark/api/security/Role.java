package io.bulwark.api.security;

/**
 * What a user may do. {@link #ADMIN}: everything. {@link #OPERATOR}: acknowledge findings, run and
 * approve remediation, power actions. {@link #AUDITOR}: read everything and export the audit log;
 * change nothing.
 */
public enum Role {
  ADMIN,
  OPERATOR,
  AUDITOR
}
