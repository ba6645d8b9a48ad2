package io.bulwark.audit.internal;

import static io.bulwark.audit.internal.AuditFixture.appendAll;
import static io.bulwark.audit.internal.AuditFixture.lines;
import static io.bulwark.audit.internal.AuditFixture.open;
import static io.bulwark.audit.internal.AuditFixture.rewrite;
import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit chain's compliance check on a real log: met while intact, Open where it breaks. */
class AuditChainCheckTest {
  @TempDir Path folder;
  private final InMemorySecretStore secrets = new InMemorySecretStore();
  private final Instant now = Instant.parse("2026-12-04T12:00:00Z");

  @Test
  void anIntactChainIsMetAndAnAlteredRecordIsOpenWithItsSequence() throws Exception {
    try (FileAuditLog log = open(folder, secrets)) {
      appendAll(log, 30);
      CheckResult intact = new AuditChainCheck(log).run(now);
      assertThat(intact.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
      assertThat(intact.evidence()).containsEntry("recordsChecked", "30");
      assertThat(intact.summary()).isEqualTo("the chain of all 30 records verifies");
      assertThat(intact.ranAt()).isEqualTo(now);
    }
    List<String> l = lines(folder);
    l.set(16, l.get(16).replace("\"actor\":\"bob\"", "\"actor\":\"eve\""));
    rewrite(folder, l);
    try (FileAuditLog log = open(folder, secrets)) {
      CheckResult broken = new AuditChainCheck(log).run(now);
      assertThat(broken.status()).isEqualTo(CheckStatus.OPEN);
      assertThat(broken.evidence()).containsEntry("firstBadSequence", "17");
      assertThat(broken.summary()).startsWith("the chain breaks at record 17: ");
      assertThat(broken.status().ckl()).isEqualTo("Open");
    }
  }
}
