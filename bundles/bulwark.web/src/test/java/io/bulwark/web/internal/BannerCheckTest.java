package io.bulwark.web.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import io.bulwark.testing.TypedConfig;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The banner check: the generic default is Open, the DoD notice is met, no banner is Open. */
class BannerCheckTest {
  private final Instant now = Instant.parse("2026-12-04T12:00:00Z");

  private CheckResult with(Map<String, Object> settings) {
    return new BannerCheck(TypedConfig.of(WebConfig.class, settings)).run(now);
  }

  @Test
  void onlyTheDodNoticeMeetsTheRule() {
    CheckResult standard = with(Map.of());
    assertThat(standard.status()).isEqualTo(CheckStatus.OPEN);
    assertThat(standard.summary()).contains("not the Standard Mandatory DoD Notice");
    assertThat(standard.evidence().get("bannerStart"))
        .startsWith("You are accessing a restricted information system.");

    CheckResult dod =
        with(
            Map.of(
                "banner",
                "You are accessing a U.S. Government (USG) Information System (IS) that is\n"
                    + "  provided for USG-authorized use only. By using this IS (which includes any"
                    + " device attached to this IS), you consent to the following conditions: …"));
    assertThat(dod.status()).isEqualTo(CheckStatus.NOT_A_FINDING);

    assertThat(with(Map.of("banner", " ")).summary()).startsWith("no banner is shown before login");
  }
}
