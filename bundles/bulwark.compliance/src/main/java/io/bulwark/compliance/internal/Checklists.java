package io.bulwark.compliance.internal;

import io.bulwark.api.compliance.CheckStatus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Writes the requirement maps with their rules' status as the files an assessor's tools open:
 *
 * <ul>
 *   <li>a STIG Viewer 2 checklist ({@code .ckl}, XML): the asset, then per benchmark its {@code
 *       STIG_INFO} and one {@code VULN} per rule with its status, finding details and comments;
 *   <li>a STIG Viewer 3 checklist ({@code .cklb}, JSON), the same content;
 *   <li>an XCCDF 1.2 {@code TestResult} for one benchmark, each rule's result with the evidence as
 *       its message and its CCIs as idents.
 * </ul>
 *
 * Identifiers are DISA's (group, rule and STIG ids, benchmark id); the UUIDs STIG Viewer wants are
 * derived from them (SHA-256), so the same rule has the same UUID in every export. The DISA rule
 * text (discussion, check, fix) is not carried by the map: an assessor's tool merges it from its
 * own copy of the benchmark, matched by rule id.
 */
final class Checklists {
  /** CKLB and CKL status per {@link CheckStatus}. */
  private static String cklb(CheckStatus s) {
    return switch (s) {
      case NOT_A_FINDING -> "not_a_finding";
      case OPEN -> "open";
      case NOT_APPLICABLE -> "not_applicable";
      case NOT_REVIEWED -> "not_reviewed";
    };
  }

  /** XCCDF 1.2 result per {@link CheckStatus}. */
  static String xccdf(CheckStatus s) {
    return switch (s) {
      case NOT_A_FINDING -> "pass";
      case OPEN -> "fail";
      case NOT_APPLICABLE -> "notapplicable";
      case NOT_REVIEWED -> "notchecked";
    };
  }

  /** The prefix DISA gives benchmark ids in XCCDF. */
  static final String BENCHMARK_PREFIX = "xccdf_mil.disa.stig_benchmark_";

  private static final String RULE_PREFIX = "xccdf_mil.disa.stig_rule_";

  private final List<ComplianceEngine.Benchmark> benchmarks;
  private final Asset asset;
  private final Instant generated;
  private final String product;

  /**
   * @param benchmarks what to write, the application's first
   * @param asset the appliance the checklist describes
   * @param generated when the export is made
   * @param product the product and version that made it, as {@code bulwark:1.2.3}
   */
  Checklists(
      List<ComplianceEngine.Benchmark> benchmarks, Asset asset, Instant generated, String product) {
    this.benchmarks = List.copyOf(benchmarks);
    this.asset = asset;
    this.generated = generated.truncatedTo(ChronoUnit.SECONDS);
    this.product = product;
  }

  // ---------------------------------------------------------------- CKL (STIG Viewer 2.x)

  /** Returns the STIG Viewer 2 checklist, UTF-8 XML. */
  byte[] ckl() {
    StringBuilder x = new StringBuilder(1 << 20);
    x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<!--Bulwark compliance export ")
        .append(generated)
        .append(" (")
        .append(product)
        .append(")-->\n<CHECKLIST>\n<ASSET>\n");
    tag(x, "ROLE", asset.role());
    tag(x, "ASSET_TYPE", "Computing");
    tag(x, "MARKING", "CUI");
    tag(x, "HOST_NAME", asset.hostName());
    tag(x, "HOST_IP", asset.ip());
    tag(x, "HOST_MAC", asset.mac());
    tag(x, "HOST_FQDN", asset.fqdn());
    tag(x, "TARGET_COMMENT", "Bulwark appliance, assessed " + generated);
    tag(x, "TECH_AREA", "Application Review");
    tag(x, "TARGET_KEY", "");
    tag(x, "WEB_OR_DATABASE", "false");
    tag(x, "WEB_DB_SITE", "");
    tag(x, "WEB_DB_INSTANCE", "");
    x.append("</ASSET>\n<STIGS>\n");
    for (ComplianceEngine.Benchmark b : benchmarks) {
      RequirementMap.Stig s = b.map().stig();
      x.append("<iSTIG>\n<STIG_INFO>\n");
      siData(x, "version", String.valueOf(s.version()));
      siData(x, "classification", "UNCLASSIFIED");
      siData(x, "customname", "");
      siData(x, "stigid", s.id());
      siData(x, "description", s.title());
      siData(x, "filename", s.source());
      siData(x, "releaseinfo", s.release());
      siData(x, "title", s.title());
      siData(x, "uuid", uuid(s.id()).toString());
      siData(x, "notice", "terms-of-use");
      siData(x, "source", "STIG.DOD.MIL");
      x.append("</STIG_INFO>\n");
      for (ComplianceEngine.RuleStatus r : b.rules()) {
        RequirementMap.Rule rule = r.rule();
        x.append("<VULN>\n");
        stigData(x, "Vuln_Num", rule.groupId());
        stigData(x, "Severity", rule.severity());
        stigData(x, "Group_Title", rule.title());
        stigData(x, "Rule_ID", rule.ruleId());
        stigData(x, "Rule_Ver", rule.stigId());
        stigData(x, "Rule_Title", rule.title());
        stigData(x, "Vuln_Discuss", "");
        stigData(x, "IA_Controls", "");
        stigData(x, "Check_Content", "");
        stigData(x, "Fix_Text", "");
        stigData(x, "False_Positives", "");
        stigData(x, "False_Negatives", "");
        stigData(x, "Documentable", "false");
        stigData(x, "Mitigations", "");
        stigData(x, "Potential_Impact", "");
        stigData(x, "Third_Party_Tools", "");
        stigData(x, "Mitigation_Control", "");
        stigData(x, "Responsibility", "");
        stigData(x, "Security_Override_Guidance", "");
        stigData(x, "Check_Content_Ref", "M");
        stigData(x, "Weight", "10.0");
        stigData(x, "Class", "Unclass");
        stigData(x, "STIGRef", s.title() + " :: Version " + s.version() + ", " + s.release());
        stigData(x, "TargetKey", "");
        stigData(x, "STIG_UUID", uuid(s.id()).toString());
        for (String cci : rule.ccis()) {
          stigData(x, "CCI_REF", cci);
        }
        tag(x, "STATUS", r.status().ckl());
        tag(x, "FINDING_DETAILS", r.findingDetails());
        tag(x, "COMMENTS", r.comments());
        tag(x, "SEVERITY_OVERRIDE", "");
        tag(x, "SEVERITY_JUSTIFICATION", "");
        x.append("</VULN>\n");
      }
      x.append("</iSTIG>\n");
    }
    x.append("</STIGS>\n</CHECKLIST>\n");
    return x.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void tag(StringBuilder x, String name, String value) {
    x.append('<').append(name).append('>');
    escape(x, value);
    x.append("</").append(name).append(">\n");
  }

  private static void siData(StringBuilder x, String name, String value) {
    x.append("<SI_DATA><SID_NAME>").append(name).append("</SID_NAME>");
    if (!value.isEmpty()) {
      x.append("<SID_DATA>");
      escape(x, value);
      x.append("</SID_DATA>");
    }
    x.append("</SI_DATA>\n");
  }

  private static void stigData(StringBuilder x, String attribute, String value) {
    x.append("<STIG_DATA><VULN_ATTRIBUTE>").append(attribute).append("</VULN_ATTRIBUTE>");
    x.append("<ATTRIBUTE_DATA>");
    escape(x, value);
    x.append("</ATTRIBUTE_DATA></STIG_DATA>\n");
  }

  // ---------------------------------------------------------------- CKLB (STIG Viewer 3)

  /** Returns the STIG Viewer 3 checklist, UTF-8 JSON. */
  byte[] cklb() {
    JsonArray stigs = new JsonArray();
    for (ComplianceEngine.Benchmark b : benchmarks) {
      RequirementMap.Stig s = b.map().stig();
      String stigUuid = uuid(s.id()).toString();
      JsonArray rules = new JsonArray();
      for (ComplianceEngine.RuleStatus r : b.rules()) {
        RequirementMap.Rule rule = r.rule();
        rules.add(
            new JsonObject()
                .put("uuid", uuid(s.id() + "/" + rule.ruleId()).toString())
                .put("stig_uuid", stigUuid)
                .put("target_key", null)
                .put("stig_ref", null)
                .put("group_id", rule.groupId())
                .put("rule_id", rule.ruleId().replaceFirst("_rule$", ""))
                .put("rule_id_src", rule.ruleId())
                .put("weight", "10.0")
                .put("classification", "Unclassified")
                .put("severity", rule.severity())
                .put("rule_version", rule.stigId())
                .put("group_title", rule.title())
                .put("rule_title", rule.title())
                .put("fix_text", "")
                .put("false_positives", "")
                .put("false_negatives", "")
                .put("discussion", "")
                .put("check_content", "")
                .put("documentable", "false")
                .put("mitigations", "")
                .put("potential_impacts", "")
                .put("third_party_tools", "")
                .put("mitigation_control", "")
                .put("responsibility", "")
                .put("security_override_guidance", "")
                .put("ia_controls", "")
                .put("check_content_ref", new JsonObject().put("href", "").put("name", "M"))
                .put("legacy_ids", new JsonArray())
                .put("ccis", new JsonArray(rule.ccis()))
                .put(
                    "group_tree",
                    new JsonArray()
                        .add(
                            new JsonObject()
                                .put("id", rule.groupId())
                                .put("title", rule.title())
                                .put("description", "")))
                .put("createdAt", generated.toString())
                .put("updatedAt", generated.toString())
                .put("STIGUuid", stigUuid)
                .put("status", cklb(r.status()))
                .put("overrides", new JsonObject())
                .put("comments", r.comments())
                .put("finding_details", r.findingDetails()));
      }
      stigs.add(
          new JsonObject()
              .put("stig_name", s.title())
              .put("display_name", s.title())
              .put("stig_id", s.id())
              .put("release_info", s.release())
              .put("version", String.valueOf(s.version()))
              .put("uuid", stigUuid)
              .put("reference_identifier", "")
              .put("size", b.rules().size())
              .put("rules", rules));
    }
    JsonObject cklb =
        new JsonObject()
            .put("title", "Bulwark " + asset.hostName() + " " + generated)
            .put("id", uuid("checklist/" + asset.hostName() + "/" + generated).toString())
            .put("active", false)
            .put("mode", 1)
            .put("has_path", false)
            .put(
                "target_data",
                new JsonObject()
                    .put("target_type", "Computing")
                    .put("host_name", asset.hostName())
                    .put("ip_address", asset.ip())
                    .put("mac_address", asset.mac())
                    .put("fqdn", asset.fqdn())
                    .put("comments", "Bulwark appliance, assessed " + generated)
                    .put("role", asset.role())
                    .put("is_web_database", false)
                    .put("technology_area", "Application Review")
                    .put("web_db_site", "")
                    .put("web_db_instance", "")
                    .put("classification", null))
            .put("stigs", stigs)
            .put("cklb_version", "1.0");
    return cklb.encodePrettily().getBytes(StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- XCCDF 1.2 results

  /**
   * Returns the XCCDF 1.2 {@code TestResult} of one benchmark, UTF-8 XML.
   *
   * @param benchmark the benchmark's id, as the maps spell it
   * @param assessedBy the account that asked for the export
   * @throws IllegalArgumentException if no map has that id
   */
  byte[] xccdf(String benchmark, String assessedBy) {
    ComplianceEngine.Benchmark b =
        benchmarks.stream()
            .filter(x -> x.map().stig().id().equals(benchmark))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no benchmark " + benchmark));
    RequirementMap.Stig s = b.map().stig();
    Instant start = generated;
    int pass = 0;
    int fail = 0;
    for (ComplianceEngine.RuleStatus r : b.rules()) {
      if (r.ranAt() != null && r.ranAt().isBefore(start)) {
        start = r.ranAt().truncatedTo(ChronoUnit.SECONDS);
      }
      pass += r.status() == CheckStatus.NOT_A_FINDING ? 1 : 0;
      fail += r.status() == CheckStatus.OPEN ? 1 : 0;
    }
    StringBuilder x = new StringBuilder(1 << 20);
    x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<TestResult xmlns=\"http://checklists.nist.gov/xccdf/1.2\"")
        .append(" id=\"xccdf_io.bulwark_testresult_")
        .append(s.id())
        .append("\" start-time=\"")
        .append(start)
        .append("\" end-time=\"")
        .append(generated)
        .append("\" test-system=\"");
    escape(x, product);
    x.append("\" version=\"").append(s.version()).append("\">\n");
    x.append("<benchmark href=\"")
        .append(BENCHMARK_PREFIX)
        .append(s.id())
        .append("\" id=\"")
        .append(BENCHMARK_PREFIX)
        .append(s.id())
        .append("\"/>\n");
    x.append("<title>");
    escape(x, s.title() + " :: Version " + s.version() + ", " + s.release());
    x.append("</title>\n<identity authenticated=\"true\" privileged=\"false\">");
    escape(x, assessedBy);
    x.append("</identity>\n<target>");
    escape(x, asset.hostName());
    x.append("</target>\n");
    if (!asset.ip().isEmpty()) {
      x.append("<target-address>").append(asset.ip()).append("</target-address>\n");
    }
    x.append("<target-facts>\n");
    fact(x, "urn:xccdf:fact:asset:identifier:host_name", asset.hostName());
    fact(x, "urn:xccdf:fact:asset:identifier:fqdn", asset.fqdn());
    fact(x, "urn:xccdf:fact:asset:identifier:mac", asset.mac());
    fact(x, "urn:xccdf:fact:asset:identifier:ipv4", asset.ip());
    String stigManager = "tag:stig-manager@users.noreply.github.com,2020:asset:";
    fact(x, stigManager + "fqdn", asset.fqdn());
    fact(x, stigManager + "mac", asset.mac());
    fact(x, stigManager + "metadata:cklRole", asset.role());
    x.append("</target-facts>\n");
    for (ComplianceEngine.RuleStatus r : b.rules()) {
      RequirementMap.Rule rule = r.rule();
      Instant at = r.ranAt() == null ? generated : r.ranAt().truncatedTo(ChronoUnit.SECONDS);
      x.append("<rule-result idref=\"")
          .append(RULE_PREFIX)
          .append(rule.ruleId())
          .append("\" time=\"")
          .append(at)
          .append("\" severity=\"")
          .append(rule.severity())
          .append("\" role=\"full\" weight=\"10.0\" version=\"");
      escape(x, rule.stigId());
      x.append("\">\n<result>").append(xccdf(r.status())).append("</result>\n");
      for (String cci : rule.ccis()) {
        x.append("<ident system=\"http://cyber.mil/cci\">").append(cci).append("</ident>\n");
      }
      String message =
          r.findingDetails().isEmpty()
              ? r.comments()
              : r.comments().isEmpty()
                  ? r.findingDetails()
                  : r.findingDetails() + "\n\n" + r.comments();
      x.append("<message severity=\"info\">");
      escape(x, message);
      x.append("</message>\n</rule-result>\n");
    }
    // The flat model: each rule weighs 10; a pass scores it, a fail counts it; others do not count.
    x.append("<score system=\"urn:xccdf:scoring:flat\" maximum=\"")
        .append(10 * (pass + fail))
        .append(".0\">")
        .append(10 * pass)
        .append(".0</score>\n</TestResult>\n");
    return x.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void fact(StringBuilder x, String name, String value) {
    if (value.isEmpty()) {
      return;
    }
    x.append("<fact name=\"");
    escape(x, name);
    x.append("\" type=\"string\">");
    escape(x, value);
    x.append("</fact>\n");
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Appends {@code s} escaped for XML text and attribute values; characters XML 1.0 cannot hold
   * (controls other than tab, newline and carriage return, lone surrogates) become U+FFFD.
   */
  static void escape(StringBuilder x, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> x.append("&amp;");
        case '<' -> x.append("&lt;");
        case '>' -> x.append("&gt;");
        case '"' -> x.append("&quot;");
        case '\'' -> x.append("&apos;");
        default -> {
          if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0xFFFE || c == 0xFFFF) {
            x.append('\uFFFD');
          } else if (Character.isHighSurrogate(c)
              && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            x.append(c).append(s.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            x.append('\uFFFD');
          } else {
            x.append(c);
          }
        }
      }
    }
  }

  /**
   * Returns a name-based UUID (SHA-256 of the name, version and variant bits set as RFC 9562 v8).
   */
  static UUID uuid(String name) {
    byte[] h;
    try {
      h = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("no SHA-256 provider", e);
    }
    h[6] = (byte) ((h[6] & 0x0f) | 0x80);
    h[8] = (byte) ((h[8] & 0x3f) | 0x80);
    ByteBuffer b = ByteBuffer.wrap(h);
    return new UUID(b.getLong(), b.getLong());
  }

  /** Returns the file extension and media type of a format name. */
  static String mediaType(String format) {
    return switch (format.toLowerCase(Locale.ROOT)) {
      case "ckl", "xccdf" -> "application/xml";
      case "cklb" -> "application/json";
      default -> throw new IllegalArgumentException(format);
    };
  }
}
