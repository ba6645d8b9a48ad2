package io.bulwark.security.tpm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Memory;
import io.bulwark.security.tpm.internal.WireFormat.Type;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The templates survive tpm2-tss unmarshalling and marshalling unchanged; bad bytes do not. */
class WireFormatTest {
  private final WireFormat wire = Tss2Libraries.load().wireFormat();

  @Test
  void everyTemplateRoundTripsThroughTheCStructure() {
    assertRoundTrip(Type.TPM2B_PUBLIC, TpmTemplates.storageKey());
    assertRoundTrip(Type.TPM2B_PUBLIC, TpmTemplates.sealedObject(new byte[0]));
    assertRoundTrip(Type.TPM2B_PUBLIC, TpmTemplates.sealedObject(new byte[32]));
    assertRoundTrip(
        Type.TPML_PCR_SELECTION, TpmTemplates.pcrSelectionList(PcrSelection.parse("0,7")));
    assertRoundTrip(Type.TPML_PCR_SELECTION, TpmTemplates.pcrSelectionList(PcrSelection.NONE));
    assertRoundTrip(Type.TPMT_SYM_DEF, TpmTemplates.aes128Cfb());
    assertRoundTrip(Type.TPMT_SYM_DEF, TpmTemplates.noCipher());
    assertRoundTrip(Type.TPML_DIGEST_VALUES, TpmTemplates.sha256Digest(new byte[32]));
    assertRoundTrip(Type.TPM2B_SENSITIVE_CREATE, TpmTemplates.sensitive(new byte[128]));
  }

  @Test
  void theSensitiveAreaHoldsTheSecretAfterAnEmptyAuthorization() {
    assertThat(TpmTemplates.sensitive(new byte[] {7, 8})).containsExactly(0, 6, 0, 0, 0, 2, 7, 8);
  }

  @Test
  void malformedOrOverlongWireBytesAreRefused() {
    byte[] template = TpmTemplates.storageKey();

    assertThatThrownBy(() -> wire.toStruct(Type.TPM2B_PUBLIC, Arrays.copyOf(template, 10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TPM2B_PUBLIC is malformed");
    assertThatThrownBy(
            () -> wire.toStruct(Type.TPM2B_PUBLIC, Arrays.copyOf(template, template.length + 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 unexpected bytes");
    byte[] unknownType = template.clone();
    unknownType[3] = 0x77;
    assertThatThrownBy(() -> wire.toStruct(Type.TPM2B_PUBLIC, unknownType))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private void assertRoundTrip(Type type, byte[] bytes) {
    try (Memory struct = wire.toStruct(type, bytes)) {
      assertThat(wire.toWire(type, struct)).as(type.name()).isEqualTo(bytes);
    }
  }
}
