package io.bulwark.api.security;

import java.util.Objects;

/**
 * The cryptographic module that performs all of Bulwark's cryptography, as {@code GET
 * /api/v1/health} reports it: its name, version, whether it runs in approved-only (FIPS) mode, and
 * whether its power-on self-tests passed.
 */
public record CryptoModuleStatus(
    String name, String version, boolean approvedOnly, boolean selfTestsPassed) {
  public CryptoModuleStatus {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
  }
}
