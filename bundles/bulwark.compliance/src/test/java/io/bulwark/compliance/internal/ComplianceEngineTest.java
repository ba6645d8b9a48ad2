package io.bulwark.compliance.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import io.bulwark.api.compliance.ComplianceCheck;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The requirement map the bundle carries, read strictly, and the engine's verdict per rule: an
 * automated rule follows its check (met, Open, failing, or not running), the other dispositions
 * give their fixed status with their text.
 */
class ComplianceEngineTest {
  private final Instant now = Instant.parse("2026-12-04T12:00:00Z");
  private final Clock clock = Clock.fixed(now, ZoneOffset.UTC);

  private static ComplianceCheck check(String id, Function<Instant, CheckResult> run) {
    return new ComplianceCheck() {
      @Override
      public String id() {
        return id;
      }

      @Override
      public String title() {
        return "the test's " + id;
      }

      @Override
      public CheckResult run(Instant at) {
        return run.apply(at);
      }
    };
  }

  @Test
  void theMapTheBundleCarriesHasEveryRuleOnceWithWhatItsDispositionNeeds() throws Exception {
    RequirementMap map = RequirementMap.load();
    assertThat(map.stig().id()).isEqualTo("Application_Security_Development_STIG");
    assertThat(map.stig().version()).isEqualTo(6);
    assertThat(map.rules()).hasSize(286);
    Set<String> groups = new HashSet<>();
    Set<String> stigIds = new HashSet<>();
    for (RequirementMap.Rule r : map.rules()) {
      assertThat(groups.add(r.groupId())).as(r.groupId() + " once").isTrue();
      assertThat(stigIds.add(r.stigId())).as(r.stigId() + " once").isTrue();
      assertThat(r.stigId()).startsWith("APSC-DV-");
      assertThat(r.ccis()).as(r.stigId() + " CCIs").allMatch(c -> c.matches("CCI-[0-9]{6}"));
    }
    assertThat(map.rules().stream().filter(r -> r.severity().equals("high"))).hasSize(34);
  }

  @Test
  void aMalformedRuleIsRefusedWithItsName() {
    String rule =
        "{\"groupId\":\"V-222387\",\"ruleId\":\"SV-222387r960735_rule\",\"stigId\":\"APSC-DV-000010\","
            + "\"severity\":\"medium\",\"title\":\"t\",\"ccis\":[],\"disposition\":\"automated\","
            + "\"how\":\"h\"}";
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> RequirementMap.parse("{\"stig\":{},\"rules\":[" + rule + "]}"));
    assertThat(e.getMessage()).isEqualTo("rule 1 (APSC-DV-000010) is automated without a check id");
    assertThat(
            assertThrows(
                    IllegalArgumentException.class,
                    () ->
                        RequirementMap.parse(
                            "{\"stig\":{},\"rules\":["
                                + rule.replace("\"automated\"", "\"manual\"")
                                + "]}"))
                .getMessage())
        .isEqualTo("rule 1 (APSC-DV-000010) is MANUAL without its 'question'");
  }

  @Test
  void eachRuleGetsItsStatusFromItsCheckOrItsDisposition() throws Exception {
    ComplianceEngine engine =
        new ComplianceEngine(java.util.List.of(RequirementMap.load()), clock, false);
    try {
      engine.bindCheck(
          check(
              "fips-approved-only",
              at ->
                  CheckResult.met(
                      "fips-approved-only", "approved-only", Map.of("module", "BC"), at)));
      engine.bindCheck(
          check(
              "session-idle-timeout",
              at -> CheckResult.open("session-idle-timeout", "too long", Map.of("s", "1800"), at)));
      engine.bindCheck(
          check(
              "audit-chain-intact",
              at -> {
                throw new IllegalStateException("disk gone");
              }));
      Map<String, CheckResult> ran = engine.runAll();
      assertThat(ran.get("audit-chain-intact").status()).isEqualTo(CheckStatus.NOT_REVIEWED);
      assertThat(ran.get("audit-chain-intact").summary()).contains("disk gone");

      Map<String, ComplianceEngine.RuleStatus> byId = new java.util.HashMap<>();
      engine.rules().forEach(r -> byId.put(r.rule().stigId(), r));
      // APSC-DV-000070: the 15-minute idle limit, automated by session-idle-timeout.
      ComplianceEngine.RuleStatus idle = byId.get("APSC-DV-000070");
      assertThat(idle.status()).isEqualTo(CheckStatus.OPEN);
      assertThat(idle.findingDetails())
          .startsWith("too long\nCheck session-idle-timeout ran at 2026-12-04T12:00:00Z")
          .contains("s: 1800");
      assertThat(idle.ranAt()).isEqualTo(now);
      for (ComplianceEngine.RuleStatus r : byId.values()) {
        switch (r.rule().disposition()) {
          case BY_DESIGN -> assertThat(r.status()).isEqualTo(CheckStatus.NOT_A_FINDING);
          case NOT_APPLICABLE -> assertThat(r.status()).isEqualTo(CheckStatus.NOT_APPLICABLE);
          case MANUAL -> {
            assertThat(r.status()).isEqualTo(CheckStatus.NOT_REVIEWED);
            assertThat(r.comments()).startsWith("For the assessor: ");
          }
          case AUTOMATED -> {
            if (!Set.of("fips-approved-only", "session-idle-timeout", "audit-chain-intact")
                .contains(r.rule().check())) {
              assertThat(r.status()).isEqualTo(CheckStatus.NOT_REVIEWED);
              assertThat(r.findingDetails())
                  .isEqualTo("no running bundle provides the check " + r.rule().check());
            }
          }
        }
      }

      JsonObject report = ComplianceRoutes.report(engine);
      assertThat(report.getJsonArray("rules")).hasSize(286);
      JsonObject counts = report.getJsonObject("counts");
      assertThat(
              counts.getInteger("NotAFinding")
                  + counts.getInteger("Open")
                  + counts.getInteger("Not_Applicable")
                  + counts.getInteger("Not_Reviewed"))
          .isEqualTo(286);
      long openRules = engine.rules().stream().filter(r -> r.status() == CheckStatus.OPEN).count();
      assertThat(counts.getInteger("Open")).isEqualTo((int) openRules).isPositive();
      assertThat(report.getJsonObject("openByCategory").getInteger("CAT II")).isPositive();

      // A check that goes away leaves its rules Not Reviewed again, saying why.
      engine.unbindCheck(engine.checks().get("session-idle-timeout"));
      assertThat(
              engine.rules().stream()
                  .filter(r -> r.rule().stigId().equals("APSC-DV-000070"))
                  .findFirst()
                  .orElseThrow()
                  .findingDetails())
          .isEqualTo("no running bundle provides the check session-idle-timeout");
    } finally {
      engine.deactivate();
    }
  }
}
