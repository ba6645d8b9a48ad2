package io.bulwark.bmc.ipmi.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bulwark.api.bmc.BmcLogEntry;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** SEL records: sensor type names, event meanings and severities, and the two kinds of time. */
class SelRecordTest {
  private static BmcLogEntry decode(String hex) throws Exception {
    return SelRecord.decode(HexFormat.of().parseHex(hex.replace(" ", "")));
  }

  @Test
  void anUncorrectableMemoryEccIsCritical() throws Exception {
    BmcLogEntry e = decode("0500 02 30000066 2000 04 0c 60 6f a1 00 03");
    assertThat(e.id()).isEqualTo("5");
    assertThat(e.created()).isEqualTo(Instant.ofEpochSecond(0x66000030L));
    assertThat(e.sensorType()).isEqualTo("Memory");
    assertThat(e.message()).isEqualTo("Memory sensor 0x60: uncorrectable ECC");
    assertThat(e.severity()).isEqualTo("Critical");
  }

  @Test
  void commonFailuresAreNamedAndRated() throws Exception {
    assertThat(decode("0100 02 00000066 2000 04 07 40 6f 00 ff ff").message()).contains("IERR");
    assertThat(decode("0100 02 00000066 2000 04 07 40 6f 0b ff ff").severity())
        .isEqualTo("Critical");
    BmcLogEntry pcie = decode("0100 02 00000066 2000 04 13 41 6f 0a ff ff");
    assertThat(pcie.sensorType()).isEqualTo("Critical Interrupt");
    assertThat(pcie.message()).contains("bus fatal error");
    assertThat(pcie.severity()).isEqualTo("Critical");
    assertThat(decode("0100 02 00000066 2000 04 09 01 6f 06 ff ff").sensorType())
        .isEqualTo("Power Unit");
    BmcLogEntry psu = decode("0100 02 00000066 2000 04 08 07 6f 01 ff ff");
    assertThat(psu.sensorType()).isEqualTo("Power Supply");
    assertThat(psu.severity()).isEqualTo("Critical");
    assertThat(decode("0100 02 00000066 2000 04 0c 60 6f 00 ff ff").severity())
        .isEqualTo("Warning");
    assertThat(decode("0100 02 00000066 2000 04 0c 60 ef 01 ff ff").message())
        .endsWith("(deasserted)");
    assertThat(decode("0100 02 00000066 2000 04 0c 60 ef 01 ff ff").severity()).isEqualTo("OK");
  }

  @Test
  void thresholdEventsAreWarningOrCritical() throws Exception {
    BmcLogEntry uc = decode("0100 02 00000066 2000 04 01 01 01 59 58 55");
    assertThat(uc.message()).isEqualTo("Temperature sensor 0x01: upper critical going high");
    assertThat(uc.severity()).isEqualTo("Critical");
    assertThat(decode("0100 02 00000066 2000 04 04 01 01 07 58 55").severity())
        .isEqualTo("Warning");
  }

  @Test
  void timestampsBeforeTheEpochThresholdAreSinceBmcInitAndOemRecordsAreKept() throws Exception {
    assertThat(decode("0100 02 00100000 2000 04 07 40 6f 00 ff ff").created()).isNull();
    assertThat(decode("0100 02 ffffffff 2000 04 07 40 6f 00 ff ff").created()).isNull();
    assertThat(decode("0200 c1 00000066 571600 00 00 00 00 00 00 00").message())
        .contains("OEM record type 0xc1");
    assertThat(decode("0300 e0 0000 0000 0000 0000 0000 0000 00").created()).isNull();
    assertThatThrownBy(() -> SelRecord.decode(new byte[4]))
        .isInstanceOf(Wire.MalformedException.class);
  }
}
