package io.bulwark.security.tpm.internal;

/**
 * The validated, immutable form of {@link TpmKeySealerConfig}. Used by the TPM key sealer.
 *
 * @param tcti the tpm2-tss TCTI configuration string, e.g. {@code device:/dev/tpmrm0}
 * @param pcrs the SHA-256 PCRs new seals are bound to; empty for none
 */
record SealerOptions(String tcti, PcrSelection pcrs) {

  /**
   * @throws IllegalArgumentException naming the property whose value is invalid
   */
  SealerOptions {
    if (tcti == null || tcti.isBlank()) {
      throw new IllegalArgumentException(
          "tcti must name the TPM, e.g. device:/dev/tpmrm0 or swtpm:host=127.0.0.1,port=2321");
    }
    tcti = tcti.trim();
    if (pcrs == null) {
      pcrs = PcrSelection.NONE;
    }
  }

  /**
   * Converts the configuration once.
   *
   * @throws IllegalArgumentException naming the property whose value is invalid
   */
  static SealerOptions from(TpmKeySealerConfig config) {
    return new SealerOptions(config.tcti(), PcrSelection.parse(config.pcrs()));
  }
}
