package io.bulwark.scheduler.slurm.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SlurmTextTest {
  @Test
  void putsTheReasonOnOneLineBehindTheProductsPrefix() {
    assertThat(SlurmText.drainReason("XID 79 on GPU 3\nfell off the bus\r\n\tseverity=critical"))
        .isEqualTo("bulwark: XID 79 on GPU 3 fell off the bus severity=critical");
    assertThat(SlurmText.drainReason("a\u0000b\u001bc\u2028d\u200be\u0085f"))
        .isEqualTo("bulwark: a b c d e f");
  }

  @Test
  void keepsQuotesEqualsSignsAndLettersOfAnyScriptAsSlurmRecordsThem() {
    assertThat(SlurmText.drainReason("row-remap \"pending\" on GPU=3, it's ünïcødé ✓"))
        .isEqualTo("bulwark: row-remap \"pending\" on GPU=3, it's ünïcødé ✓");
  }

  @Test
  void givesAGenericReasonForABlankOne() {
    assertThat(SlurmText.drainReason("  \n ")).isEqualTo("bulwark: drained for remediation");
    assertThat(SlurmText.drainReason(null)).isEqualTo("bulwark: drained for remediation");
  }

  @Test
  void boundsTheReasonAtACharacterBoundary() {
    String reason = SlurmText.drainReason("x".repeat(189) + " 🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥🔥");

    assertThat(reason.codePointCount(0, reason.length())).isEqualTo(SlurmText.REASON_LIMIT);
    assertThat(reason).startsWith("bulwark: xxx").endsWith("🔥");
    assertThat(Character.isHighSurrogate(reason.charAt(reason.length() - 1))).isFalse();
  }
}
