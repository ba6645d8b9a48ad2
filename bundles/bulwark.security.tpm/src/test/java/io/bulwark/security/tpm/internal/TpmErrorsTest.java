package io.bulwark.security.tpm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TpmErrorsTest {
  private static final String TCTI = "swtpm:host=127.0.0.1,port=2321";

  @Test
  void aPolicyFailureOnUnsealSaysThePcrsChanged() {
    TpmErrors errors = new TpmErrors(TCTI, Tss2Libraries.load().responseCodes());

    String message = errors.refused("unseal the key", 0x99d).getMessage();

    assertThat(message)
        .startsWith("TPM at swtpm:host=127.0.0.1,port=2321 refused to unseal the key: ")
        .contains("policy check failed (0x99d)")
        .endsWith("seal it again");
    assertThat(message).contains("the PCR values changed since the key was sealed");
  }

  @Test
  void malformedParametersMeanADamagedBlobOnlyWhenABlobWasSent() {
    TpmErrors errors = new TpmErrors(TCTI, rc -> "decoded");

    assertThat(errors.refusedBlob("load the sealed key", 0x2e1).getMessage())
        .isEqualTo(
            "TPM at "
                + TCTI
                + " refused to load the sealed key: decoded (0x2e1): the sealed blob is damaged or"
                + " was sealed by another TPM");
    assertThat(errors.refused("seal the key", 0x2e1).getMessage()).endsWith("decoded (0x2e1)");
    assertThat(errors.refused("load the sealed key", 0x1df).getMessage())
        .endsWith("damaged or was sealed by another TPM");
  }

  @Test
  void knownConditionsGetAdvice() {
    assertThat(TpmErrors.advice(0x921, false)).contains("dictionary-attack lockout");
    assertThat(TpmErrors.advice(0x902, false)).contains("tpm2_flushcontext");
    assertThat(TpmErrors.advice(0x98e, false)).contains("owner hierarchy's authorization");
    assertThat(TpmErrors.advice(0x985, false)).contains("owner hierarchy is disabled");
    assertThat(TpmErrors.advice(0x12f, false)).contains("needs a PCR policy");
    assertThat(TpmErrors.advice(0x0a000a, false)).contains("connection to the TPM failed");
    assertThat(TpmErrors.advice(0x70001, false)).isEmpty();
    assertThat(TpmErrors.advice(0x99d, true))
        .as("a policy failure is never a damaged blob")
        .contains("PCR values changed");
  }

  @Test
  void nonTpmLayersFailRatherThanRefuse() {
    TpmErrors errors = new TpmErrors(TCTI, rc -> "esapi:bad reference");

    assertThat(errors.refused("unseal the key", 0x70005).getMessage())
        .startsWith("TPM at " + TCTI + " failed to unseal the key: esapi:bad reference (0x70005)");
  }

  @Test
  void anUnreachableTctiNamesItsLibrary() {
    TpmErrors errors = new TpmErrors("device:/dev/tpmrm0", rc -> "tcti:IO failure");

    assertThat(errors.unreachable(0xa000a).getMessage())
        .startsWith(
            "Cannot reach the TPM through TCTI device:/dev/tpmrm0: tcti:IO failure (0xa000a)")
        .contains("libtss2-tcti-device.so.0");
  }
}
