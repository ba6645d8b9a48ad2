package io.bulwark.compliance.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bulwark.api.compliance.CheckResult;
import io.bulwark.api.compliance.CheckStatus;
import io.bulwark.api.compliance.ComplianceCheck;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The three exports of the application's and the OS maps: every rule once with the status the
 * engine gives it, the evidence as finding details (escaped, whatever it holds), the asset, and the
 * benchmark identity an assessor's tool matches on. The files are also left in {@code
 * target/checklists/} for a reader to open.
 */
class ChecklistsTest {
  private final Instant now = Instant.parse("2026-12-04T12:00:00Z");
  private final Asset asset =
      new Asset(
          "bulwark-01",
          "bulwark-01.site.example",
          "10.0.0.5",
          "52:54:00:12:34:56",
          "Member Server");

  private ComplianceEngine engine() throws Exception {
    ComplianceEngine engine =
        new ComplianceEngine(
            List.of(
                RequirementMap.load(RequirementMap.RESOURCE),
                RequirementMap.load(RequirementMap.OS_RESOURCE)),
            Clock.fixed(now, ZoneOffset.UTC),
            false);
    engine.bindCheck(
        check(
            "fips-approved-only",
            at ->
                CheckResult.met(
                    "fips-approved-only",
                    "approved-only <mode> & \"self-tests\" passed \u0001",
                    Map.of("approvedOnly", "true"),
                    at)));
    engine.bindCheck(
        check(
            "audit-chain-intact",
            at ->
                CheckResult.open(
                    "audit-chain-intact",
                    "the chain breaks at record 2",
                    Map.of("firstBadSequence", "2"),
                    at)));
    engine.runAll();
    return engine;
  }

  private static ComplianceCheck check(
      String id, java.util.function.Function<Instant, CheckResult> run) {
    return new ComplianceCheck() {
      @Override
      public String id() {
        return id;
      }

      @Override
      public String title() {
        return id;
      }

      @Override
      public CheckResult run(Instant at) {
        return run.apply(at);
      }
    };
  }

  private static Map<String, CheckStatus> expected(ComplianceEngine engine) {
    Map<String, CheckStatus> out = new HashMap<>();
    engine
        .benchmarks()
        .forEach(b -> b.rules().forEach(r -> out.put(r.rule().ruleId(), r.status())));
    return out;
  }

  private static Document xml(byte[] data) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(data));
  }

  private static void keep(String name, byte[] data) throws Exception {
    Path dir = Path.of("target", "checklists");
    Files.createDirectories(dir);
    Files.write(dir.resolve(name), data);
  }

  @Test
  void cklHoldsTheAssetBothBenchmarksAndEveryRuleWithItsStatusAndEvidence() throws Exception {
    ComplianceEngine engine = engine();
    byte[] ckl =
        new Checklists(engine.benchmarks(), asset, now, "cpe:/a:bulwark:bulwark:1.0").ckl();
    keep("bulwark.ckl", ckl);
    Document d = xml(ckl);
    assertThat(text(d.getDocumentElement(), "HOST_NAME")).isEqualTo("bulwark-01");
    assertThat(text(d.getDocumentElement(), "HOST_IP")).isEqualTo("10.0.0.5");
    assertThat(text(d.getDocumentElement(), "HOST_MAC")).isEqualTo("52:54:00:12:34:56");
    assertThat(text(d.getDocumentElement(), "ROLE")).isEqualTo("Member Server");
    NodeList istigs = d.getElementsByTagName("iSTIG");
    assertThat(istigs.getLength()).isEqualTo(2);
    Map<String, CheckStatus> expected = expected(engine);
    NodeList vulns = d.getElementsByTagName("VULN");
    assertThat(vulns.getLength()).isEqualTo(expected.size());
    Map<String, String> statuses = new HashMap<>();
    String fipsDetails = null;
    for (int i = 0; i < vulns.getLength(); i++) {
      Element v = (Element) vulns.item(i);
      String ruleId = stigData(v, "Rule_ID");
      statuses.put(ruleId, text(v, "STATUS"));
      if ("APSC-DV-001860".equals(stigData(v, "Rule_Ver"))) {
        fipsDetails = text(v, "FINDING_DETAILS");
      }
    }
    expected.forEach((rule, st) -> assertThat(statuses.get(rule)).as(rule).isEqualTo(st.ckl()));
    assertThat(statuses).containsValues("Open", "NotAFinding", "Not_Applicable", "Not_Reviewed");
    assertThat(fipsDetails)
        .contains("approved-only <mode> & \"self-tests\" passed \uFFFD", "approvedOnly: true");
  }

  @Test
  void cklbHoldsTheSameStatusesInStigViewer3Spelling() throws Exception {
    ComplianceEngine engine = engine();
    byte[] cklb =
        new Checklists(engine.benchmarks(), asset, now, "cpe:/a:bulwark:bulwark:1.0").cklb();
    keep("bulwark.cklb", cklb);
    JsonObject o = new JsonObject(new String(cklb, StandardCharsets.UTF_8));
    assertThat(o.getJsonObject("target_data").getString("host_name")).isEqualTo("bulwark-01");
    assertThat(o.getJsonArray("stigs")).hasSize(2);
    Map<String, CheckStatus> expected = expected(engine);
    Map<String, String> statuses = new HashMap<>();
    o.getJsonArray("stigs")
        .forEach(
            s ->
                ((JsonObject) s)
                    .getJsonArray("rules")
                    .forEach(
                        r ->
                            statuses.put(
                                ((JsonObject) r).getString("rule_id_src"),
                                ((JsonObject) r).getString("status"))));
    assertThat(statuses).hasSize(expected.size());
    Map<CheckStatus, String> spelled =
        Map.of(
            CheckStatus.NOT_A_FINDING, "not_a_finding",
            CheckStatus.OPEN, "open",
            CheckStatus.NOT_APPLICABLE, "not_applicable",
            CheckStatus.NOT_REVIEWED, "not_reviewed");
    expected.forEach(
        (rule, st) -> assertThat(statuses.get(rule)).as(rule).isEqualTo(spelled.get(st)));
    JsonObject asd = o.getJsonArray("stigs").getJsonObject(0);
    assertThat(asd.getString("stig_id")).isEqualTo("Application_Security_Development_STIG");
    assertThat(asd.getString("release_info")).startsWith("Release: 4 ");
  }

  @Test
  void xccdfIsOneBenchmarksTestResultWithResultsIdentsAndAFlatScore() throws Exception {
    ComplianceEngine engine = engine();
    Checklists files =
        new Checklists(engine.benchmarks(), asset, now, "cpe:/a:bulwark:bulwark:1.0");
    byte[] xccdf = files.xccdf("Application_Security_Development_STIG", "auditor & co");
    keep("bulwark-asd-xccdf.xml", xccdf);
    Document d = xml(xccdf);
    Element root = d.getDocumentElement();
    assertThat(root.getLocalName()).isEqualTo("TestResult");
    assertThat(root.getNamespaceURI()).isEqualTo("http://checklists.nist.gov/xccdf/1.2");
    assertThat(root.getAttribute("id"))
        .matches("xccdf_[^_]+_testresult_.+")
        .endsWith("Application_Security_Development_STIG");
    Element benchmark = (Element) root.getElementsByTagName("benchmark").item(0);
    assertThat(benchmark.getAttribute("href"))
        .isEqualTo("xccdf_mil.disa.stig_benchmark_Application_Security_Development_STIG");
    assertThat(text(root, "identity")).isEqualTo("auditor & co");
    assertThat(text(root, "target")).isEqualTo("bulwark-01");
    NodeList results = root.getElementsByTagName("rule-result");
    Map<String, CheckStatus> expected = new HashMap<>();
    engine.rules().forEach(r -> expected.put(r.rule().ruleId(), r.status()));
    assertThat(results.getLength()).isEqualTo(expected.size());
    int pass = 0;
    int fail = 0;
    for (int i = 0; i < results.getLength(); i++) {
      Element r = (Element) results.item(i);
      String rule = r.getAttribute("idref").replace("xccdf_mil.disa.stig_rule_", "");
      String result = text(r, "result");
      assertThat(result).as(rule).isEqualTo(Checklists.xccdf(expected.get(rule)));
      assertThat(r.getElementsByTagName("ident").getLength()).as(rule).isPositive();
      pass += result.equals("pass") ? 1 : 0;
      fail += result.equals("fail") ? 1 : 0;
    }
    Element score = (Element) root.getElementsByTagName("score").item(0);
    assertThat(score.getAttribute("maximum")).isEqualTo(10 * (pass + fail) + ".0");
    assertThat(score.getTextContent()).isEqualTo(10 * pass + ".0");
    keep(
        "bulwark-os-xccdf.xml",
        files.xccdf(engine.benchmarks().get(1).map().stig().id(), "auditor"));
  }

  @Test
  void uuidsAreStableAndDistinct() {
    assertThat(Checklists.uuid("a"))
        .isEqualTo(Checklists.uuid("a"))
        .isNotEqualTo(Checklists.uuid("b"));
    assertThat(Checklists.uuid("a").version()).isEqualTo(8);
  }

  private static String text(Element parent, String tag) {
    NodeList l = parent.getElementsByTagNameNS("*", tag);
    return l.getLength() == 0 ? null : l.item(0).getTextContent();
  }

  private static String stigData(Element vuln, String attribute) {
    NodeList data = vuln.getElementsByTagName("STIG_DATA");
    for (int i = 0; i < data.getLength(); i++) {
      Element e = (Element) data.item(i);
      if (text(e, "VULN_ATTRIBUTE").equals(attribute)) {
        return text(e, "ATTRIBUTE_DATA");
      }
    }
    return null;
  }
}
