package io.bulwark.updates.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compliance check of update signatures, with real trusted keys: the verifier refuses the
 * unsigned and the forged package, and the evidence names the keys it trusted.
 */
class SignatureRequiredCheckTest {
  @TempDir Path dir;

  @Test
  void unsignedAndForgedPackagesAreRefusedWithTheTrustedKeysInEffect() throws Exception {
    Path keys = dir.resolve("keys");
    TestPackages.identity("release-2026").trust(keys);
    CheckResult r =
        TestPackages.approved(
            () ->
                SignatureRequiredCheck.run(
                    List.of(keys), Set.of(), Instant.now(), UnaryOperator.identity()));
    assertThat(r.status()).as(r.summary()).isEqualTo(CheckStatus.NOT_A_FINDING);
    assertThat(r.evidence())
        .containsEntry("trustedEcdsaKeys", "1")
        .containsEntry("trustedLmsKeys", "1");
    assertThat(r.evidence().get("unsignedPackage")).startsWith("refused: ");
    assertThat(r.evidence().get("packageWithForgedSignatures")).startsWith("refused: ");
  }
}
