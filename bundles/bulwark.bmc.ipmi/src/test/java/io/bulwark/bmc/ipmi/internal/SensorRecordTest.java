package io.bulwark.bmc.ipmi.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.bulwark.api.bmc.BmcSensor;
import io.bulwark.api.bmc.BootDevice;
import org.junit.jupiter.api.Test;

/**
 * SDR records and readings: the y = L[(M x + B 10^K1) 10^K2] conversion with signed M, B and
 * exponents, the analog data formats, thresholds, health from the threshold status bits and power
 * supply states, compact records, and the boot flags of Set System Boot Options.
 */
class SensorRecordTest {
  @Test
  void aFullRecordConvertsWithMBAndBothExponents() throws Exception {
    SensorRecord volts =
        SensorRecord.parse(IpmiSimulator.full(4, 0x02, 0x04, 6, 5, 0, -2, 0xfa, 0xb4, "12V"));
    assertThat(volts.name()).isEqualTo("12V");
    assertThat(volts.m()).isEqualTo(6);
    assertThat(volts.b()).isEqualTo(5);
    assertThat(volts.k2()).isEqualTo(-2);
    assertThat(volts.convert(200)).isCloseTo(12.05, within(1e-9));
    SensorRecord negative =
        SensorRecord.parse(IpmiSimulator.full(9, 0x01, 0x01, -3, -100, 1, 0, 0, 0, "T"));
    assertThat(negative.m()).isEqualTo(-3);
    assertThat(negative.b()).isEqualTo(-100);
    assertThat(negative.convert(10)).isEqualTo(-3 * 10 + -100 * 10.0);
  }

  @Test
  void aThresholdReadingCarriesHealthAndCriticalThresholds() throws Exception {
    SensorRecord cpu =
        SensorRecord.parse(IpmiSimulator.full(1, 0x01, 0x01, 1, 0, 0, 0, 0x55, 0x05, "CPU Temp"));
    BmcSensor ok = cpu.reading(new byte[] {45, (byte) 0xc0, 0x00});
    assertThat(ok.value()).isEqualTo(45.0);
    assertThat(ok.unit()).isEqualTo("Cel");
    assertThat(ok.kind()).isEqualTo(BmcSensor.Kind.TEMPERATURE);
    assertThat(ok.health()).isEqualTo("OK");
    assertThat(ok.upperCritical()).isEqualTo(85.0);
    assertThat(ok.lowerCritical()).isEqualTo(5.0);
    assertThat(cpu.reading(new byte[] {82, (byte) 0xc0, 0x08}).health()).isEqualTo("Warning");
    assertThat(cpu.reading(new byte[] {88, (byte) 0xc0, 0x18}).health()).isEqualTo("Critical");
    assertThat(cpu.reading(new byte[] {1, (byte) 0xc0, 0x03}).health()).isEqualTo("Critical");
    BmcSensor unavailable = cpu.reading(new byte[] {0, (byte) 0x20, 0});
    assertThat(unavailable.value()).isNaN();
    assertThat(unavailable.health()).isEmpty();
    assertThat(cpu.reading(null).value()).isNaN();
  }

  @Test
  void analogFormatsAreHonoured() throws Exception {
    byte[] r = IpmiSimulator.full(1, 0x01, 0x01, 1, 0, 0, 0, 0, 0, "T");
    r[20] = (byte) 0x80; // two's complement
    assertThat(SensorRecord.parse(r).convert(0xf6)).isEqualTo(-10.0);
    r[20] = 0x40; // one's complement
    assertThat(SensorRecord.parse(r).convert(0xf5)).isEqualTo(-10.0);
    r[20] = (byte) 0xc0; // no analog reading
    assertThat(SensorRecord.parse(r).convert(10)).isNaN();
  }

  @Test
  void compactPowerSupplyRecordsReportStatesAsHealth() throws Exception {
    SensorRecord psu = SensorRecord.parse(IpmiSimulator.compact(6, 0x08, 0x6f, "PSU1 Status"));
    assertThat(psu.kind()).isEqualTo(BmcSensor.Kind.POWER_SUPPLY);
    assertThat(psu.reading(new byte[] {0, (byte) 0xc0, 0x01}).health()).isEqualTo("OK");
    assertThat(psu.reading(new byte[] {0, (byte) 0xc0, 0x03}).health()).isEqualTo("Critical");
    assertThat(psu.reading(new byte[] {0, (byte) 0xc0, 0x05}).health()).isEqualTo("Warning");
    assertThat(psu.reading(new byte[] {0, (byte) 0xc0, 0x01}).value()).isNaN();
    assertThat(SensorRecord.parse(new byte[] {0, 0, 0x51, 0x11, 0})).isNull();
  }

  @Test
  void bootFlagsSetValidPersistenceEfiAndTheDevice() throws Exception {
    assertThat(IpmiConnection.bootFlags(BootDevice.PXE, true, true, "b"))
        .containsExactly(0x05, 0xa0, 0x04, 0, 0, 0);
    assertThat(IpmiConnection.bootFlags(BootDevice.DISK, false, false, "b"))
        .containsExactly(0x05, 0xc0, 0x08, 0, 0, 0);
    assertThat(IpmiConnection.bootFlags(BootDevice.BIOS_SETUP, true, false, "b"))
        .containsExactly(0x05, 0x80, 0x18, 0, 0, 0);
    assertThat(IpmiConnection.bootFlags(BootDevice.NONE, true, false, "b"))
        .containsExactly(0x05, 0x80, 0x00, 0, 0, 0);
  }
}
