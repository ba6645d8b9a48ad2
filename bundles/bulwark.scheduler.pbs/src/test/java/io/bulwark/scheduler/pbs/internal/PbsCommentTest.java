package io.bulwark.scheduler.pbs.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The comment or note Bulwark records with a drained node. */
class PbsCommentTest {
  @Test
  void namesBulwarkAndTheReason() {
    assertThat(PbsComment.forDrain("xid 79 on GPU 3")).isEqualTo("bulwark: xid 79 on GPU 3");
  }

  @Test
  void aBlankReasonStillSaysWhoDrainedTheNode() {
    assertThat(PbsComment.forDrain(" \n\t")).isEqualTo("bulwark: drained for remediation");
    assertThat(PbsComment.forDrain(null)).isEqualTo("bulwark: drained for remediation");
  }

  @Test
  void controlCharactersBecomeOneSpace() {
    assertThat(PbsComment.forDrain("xid 79\r\n\ton GPU\u0000 3\u0085\u2028end\u200b!"))
        .isEqualTo("bulwark: xid 79 on GPU 3 end !");
  }

  @Test
  void isCutAt79BytesOnACharacterBoundary() {
    String reason = "é".repeat(60);

    String comment = PbsComment.forDrain(reason);

    byte[] bytes = comment.getBytes(StandardCharsets.UTF_8);
    assertThat(bytes.length).isLessThanOrEqualTo(79).isGreaterThanOrEqualTo(78);
    assertThat(comment).startsWith("bulwark: éé").endsWith("é");
    assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(comment);
  }

  @Test
  void aShortEnoughReasonIsKeptWhole() {
    String reason = "x".repeat(79 - PbsComment.PREFIX.length());

    assertThat(PbsComment.forDrain(reason)).isEqualTo(PbsComment.PREFIX + reason);
    assertThat(PbsComment.forDrain(reason + "y")).isEqualTo(PbsComment.PREFIX + reason);
  }
}
