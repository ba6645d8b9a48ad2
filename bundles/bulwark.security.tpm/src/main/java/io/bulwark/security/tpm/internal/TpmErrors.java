package io.bulwark.security.tpm.internal;

/**
 * Turns TSS2 response codes into operator messages: which TPM (by its TCTI), what it refused, the
 * code decoded by {@code Tss2_RC_Decode}, and what the code usually means for a sealed key. Used by
 * {@link TpmConnection}. Thread-safe.
 */
final class TpmErrors {

  /** TPM_RC_INITIALIZE: the TPM has not run TPM2_Startup yet. */
  static final int RC_INITIALIZE = 0x100;

  private static final int LAYER_TPM = 0;
  private static final int LAYER_TCTI = 10;

  private final String tcti;
  private final ResponseCodeLibrary decoder;

  TpmErrors(String tcti, ResponseCodeLibrary decoder) {
    this.tcti = tcti;
    this.decoder = decoder;
  }

  String tcti() {
    return tcti;
  }

  /**
   * Returns the exception for a command that returned {@code rc} while trying to {@code action}.
   */
  IllegalStateException refused(String action, int rc) {
    return refused(action, rc, false);
  }

  /**
   * Returns the exception for a command given parts of a sealed blob: a malformed parameter then
   * means a damaged blob.
   */
  IllegalStateException refusedBlob(String action, int rc) {
    return refused(action, rc, true);
  }

  private IllegalStateException refused(String action, int rc, boolean blob) {
    String verb = layer(rc) == LAYER_TPM ? " refused to " : " failed to ";
    return new IllegalStateException("TPM at " + tcti + verb + action + ": " + explain(rc, blob));
  }

  /** Returns the exception for a TCTI that could not be opened. */
  IllegalStateException unreachable(int rc) {
    String module = tcti.contains(":") ? tcti.substring(0, tcti.indexOf(':')) : tcti;
    return new IllegalStateException(
        "Cannot reach the TPM through TCTI "
            + tcti
            + ": "
            + decode(rc)
            + String.format(" (0x%x)", rc)
            + ". Check that the TPM is present and enabled in the firmware and that /dev/tpmrm0 is"
            + " readable by Bulwark (device TCTI), or that the TPM simulator is running (swtpm"
            + " TCTI); the TCTI library libtss2-tcti-"
            + module
            + ".so.0 must be installed (Debian 12: libtss2-tcti-"
            + module
            + "0).");
  }

  /** Returns {@code "<decoded> (0x...)"} followed by advice when the code has a known meaning. */
  String explain(int rc) {
    return explain(rc, false);
  }

  private String explain(int rc, boolean blob) {
    String advice = advice(rc, blob);
    String text = decode(rc) + String.format(" (0x%x)", rc);
    return advice.isEmpty() ? text : text + ": " + advice;
  }

  private String decode(int rc) {
    try {
      String decoded = decoder.Tss2_RC_Decode(rc);
      return decoded == null ? "unknown error" : decoded;
    } catch (RuntimeException | UnsatisfiedLinkError e) {
      return "undecoded error";
    }
  }

  /**
   * Returns what a response code usually means for sealing, or "" when it has no known meaning.
   *
   * @param blob whether the command carried parts of a sealed blob
   */
  static String advice(int rc, boolean blob) {
    if (layer(rc) == LAYER_TCTI) {
      return "the connection to the TPM failed; check that the TPM device or simulator is available";
    }
    if (layer(rc) != LAYER_TPM) {
      return "";
    }
    boolean formatOne = (rc & 0x80) != 0;
    int code = formatOne ? rc & 0xbf : rc & 0xfff;
    if (blob && formatOne && code != 0x08e && code != 0x09d && code != 0x0a2) {
      return "the sealed blob is damaged or was sealed by another TPM";
    }
    return switch (code) {
      case 0x09d, 0x128 ->
          "the PCR values changed since the key was sealed (firmware, boot loader or Secure Boot"
              + " configuration), or the blob's PCR list was altered: restore the key from its"
              + " recovery copy and seal it again";
      case 0x09f -> "the sealed blob is damaged or was sealed by another TPM";
      case 0x12f ->
          "the sealed object needs a PCR policy that the blob does not name: the blob is damaged";
      case 0x08e, 0x0a2 ->
          "an authorization was refused: Bulwark needs the owner hierarchy's authorization value"
              + " to be empty";
      case 0x081, 0x0a6 -> "this TPM does not support ECC NIST P-256 storage keys";
      case 0x085 -> "the owner hierarchy is disabled: enable it in the firmware's TPM settings";
      case 0x921 ->
          "the TPM is in dictionary-attack lockout: wait for it to expire or reset it with"
              + " tpm2_dictionarylockout -c";
      case 0x902, 0x903, 0x904, 0x905, 0x906 ->
          "the TPM has no free object or session slots: another program leaves them loaded; use"
              + " the kernel resource manager (device:/dev/tpmrm0) or flush them with"
              + " tpm2_flushcontext -t and -s";
      case 0x101 -> "the TPM is in failure mode: reboot the machine and check its firmware";
      case RC_INITIALIZE -> "the TPM was not started (TPM2_Startup)";
      default -> "";
    };
  }

  private static int layer(int rc) {
    return (rc >>> 16) & 0xff;
  }
}
