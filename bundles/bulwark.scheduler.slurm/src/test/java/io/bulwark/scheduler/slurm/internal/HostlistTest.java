package io.bulwark.scheduler.slurm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HostlistTest {
  @Test
  void expandsRangesAndSingleNumbersInOneBracketKeepingTheirPadding() {
    assertThat(Hostlist.expand("gpu[01-03,07]"))
        .containsExactly("gpu01", "gpu02", "gpu03", "gpu07");
    assertThat(Hostlist.expand("gpu[08-11]")).containsExactly("gpu08", "gpu09", "gpu10", "gpu11");
    assertThat(Hostlist.expand("n[8-10]")).containsExactly("n8", "n9", "n10");
    assertThat(Hostlist.expand("n[098-101]")).containsExactly("n098", "n099", "n100", "n101");
  }

  @Test
  void expandsPlainNamesAndSeveralExpressionsSeparatedByCommas() {
    assertThat(Hostlist.expand("a2,b1")).containsExactly("a2", "b1");
    assertThat(Hostlist.expand("gpu07")).containsExactly("gpu07");
    assertThat(Hostlist.expand("gpu[01-02],login1,cpu[1,3]"))
        .containsExactly("gpu01", "gpu02", "login1", "cpu1", "cpu3");
    assertThat(Hostlist.expand("  ")).isEmpty();
  }

  @Test
  void combinesSeveralBracketsInOneNameWithTheFirstVaryingSlowest() {
    assertThat(Hostlist.expand("rack[1-2]-gpu[1-2].dc"))
        .containsExactly("rack1-gpu1.dc", "rack1-gpu2.dc", "rack2-gpu1.dc", "rack2-gpu2.dc");
  }

  @Test
  void listsANameWrittenTwiceOnce() {
    assertThat(Hostlist.expand("gpu[01-02],gpu02,gpu[02-03]"))
        .containsExactly("gpu01", "gpu02", "gpu03");
  }

  @Test
  void refusesWhatIsNotAHostlistExpression() {
    assertThatThrownBy(() -> Hostlist.expand("gpu[01-03"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not closed");
    assertThatThrownBy(() -> Hostlist.expand("gpu01-03]")).hasMessageContaining("was not opened");
    assertThatThrownBy(() -> Hostlist.expand("gpu[[1-2]]")).hasMessageContaining("inside another");
    assertThatThrownBy(() -> Hostlist.expand("gpu[a-c]"))
        .hasMessageContaining("not a number range");
    assertThatThrownBy(() -> Hostlist.expand("gpu[1-]")).hasMessageContaining("not a number range");
    assertThatThrownBy(() -> Hostlist.expand("gpu[]")).hasMessageContaining("not a number range");
    assertThatThrownBy(() -> Hostlist.expand("gpu[5-3]")).hasMessageContaining("runs backwards");
    assertThatThrownBy(() -> Hostlist.expand("a,,b")).hasMessageContaining("empty name");
    assertThatThrownBy(() -> Hostlist.expand("gpu[0-99999999]"))
        .hasMessageContaining("more than " + Hostlist.LIMIT);
  }
}
