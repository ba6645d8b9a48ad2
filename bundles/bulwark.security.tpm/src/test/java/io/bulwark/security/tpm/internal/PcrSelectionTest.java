package io.bulwark.security.tpm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PcrSelectionTest {

  @Test
  void aCommaSeparatedListSelectsThosePcrs() {
    PcrSelection pcrs = PcrSelection.parse(" 7, 0 ,7,23");

    assertThat(pcrs.indices()).containsExactly(0, 7, 23);
    assertThat(pcrs).hasToString("0,7,23");
    assertThat(pcrs.bitmap()).containsExactly(0x81, 0x00, 0x80);
  }

  @Test
  void blankMeansNoPcrBinding() {
    assertThat(PcrSelection.parse("").isEmpty()).isTrue();
    assertThat(PcrSelection.parse("  ").isEmpty()).isTrue();
    assertThat(PcrSelection.parse(null)).isEqualTo(PcrSelection.NONE);
    assertThat(PcrSelection.NONE.bitmap()).containsExactly(0, 0, 0);
  }

  @Test
  void entriesThatAreNotPcrIndicesAreRefusedByName() {
    assertThatThrownBy(() -> PcrSelection.parse("0,24"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"24\" in \"0,24\"");
    assertThatThrownBy(() -> PcrSelection.parse("-1")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PcrSelection.parse("0,,7"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("\"\" in");
    assertThatThrownBy(() -> PcrSelection.parse("0-7"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theBitmapRoundTripsAndRefusesPcrsAbove23() {
    PcrSelection pcrs = PcrSelection.parse("1,8,16");

    assertThat(PcrSelection.fromBitmap(pcrs.bitmap())).isEqualTo(pcrs);
    assertThat(PcrSelection.fromBitmap(new byte[] {0x02})).isEqualTo(PcrSelection.parse("1"));
    assertThatThrownBy(() -> PcrSelection.fromBitmap(new byte[] {0, 0, 0, 1}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PcrSelection.fromBitmap(new byte[5]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
