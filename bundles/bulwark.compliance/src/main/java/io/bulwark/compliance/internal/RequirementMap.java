package io.bulwark.compliance.internal;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The requirement map: the STIG it maps and, for each rule, DISA's identifiers and Bulwark's
 * disposition. Read strictly: a rule with a malformed identifier or a disposition without its field
 * is refused with the rule named.
 *
 * @param stig the benchmark's id, title, version, release, date and source
 * @param rules the rules, in the map's order
 */
record RequirementMap(Stig stig, List<Rule> rules) {
  /** Where the bundle keeps the application's map (the ASD STIG). */
  static final String RESOURCE = "/stig/asd-stig.json";

  /** Where the bundle keeps the appliance image's OS map (the GPOS SRG, Ubuntu 22.04's rules). */
  static final String OS_RESOURCE = "/stig/os-srg.json";

  private static final Pattern GROUP = Pattern.compile("V-[0-9]{4,7}");
  private static final Pattern RULE = Pattern.compile("SV-[0-9]{4,7}r[0-9]+_rule");
  private static final Pattern CCI = Pattern.compile("CCI-[0-9]{6}");
  private static final Pattern CHECK = Pattern.compile("[a-z][a-z0-9-]{1,63}");

  /** The benchmark. */
  record Stig(String id, String title, int version, String release, String date, String source) {}

  /** How Bulwark meets a rule. */
  enum Disposition {
    AUTOMATED,
    BY_DESIGN,
    NOT_APPLICABLE,
    MANUAL,
    /** An OS rule checked against the appliance image's root; Not Reviewed until those checks. */
    IMAGE
  }

  /**
   * One rule.
   *
   * @param text for {@code automated} and {@code by-design} how Bulwark meets it, for {@code
   *     not-applicable} why it does not apply, for {@code manual} the question a person answers,
   *     for {@code image} what the image check reads and the question to answer until it runs
   * @param check the check's id for an automated rule, else empty
   */
  record Rule(
      String groupId,
      String ruleId,
      String stigId,
      String severity,
      String title,
      List<String> ccis,
      Disposition disposition,
      String check,
      String text) {
    Rule {
      ccis = List.copyOf(ccis);
    }

    /** Returns the rule's category: CAT I for high severity, II for medium, III for low. */
    String category() {
      return switch (severity) {
        case "high" -> "CAT I";
        case "medium" -> "CAT II";
        default -> "CAT III";
      };
    }
  }

  RequirementMap {
    Objects.requireNonNull(stig, "stig");
    rules = List.copyOf(rules);
  }

  /** Reads the application's map the bundle carries. */
  static RequirementMap load() throws IOException {
    return load(RESOURCE);
  }

  /** Reads a map the bundle carries. */
  static RequirementMap load(String resource) throws IOException {
    try (InputStream in = RequirementMap.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("the bundle carries no " + resource);
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /**
   * Reads a map.
   *
   * @throws IllegalArgumentException naming the rule and the field that is wrong
   */
  static RequirementMap parse(String json) {
    JsonObject o;
    try {
      o = new JsonObject(json);
    } catch (DecodeException e) {
      throw new IllegalArgumentException("the requirement map is not JSON: " + e.getMessage());
    }
    JsonObject s = o.getJsonObject("stig");
    if (s == null) {
      throw new IllegalArgumentException("the requirement map names no stig");
    }
    Stig stig =
        new Stig(
            s.getString("id", ""),
            s.getString("title", ""),
            s.getInteger("version", 0),
            s.getString("release", ""),
            s.getString("date", ""),
            s.getString("source", ""));
    List<Rule> rules = new ArrayList<>();
    JsonArray list = o.getJsonArray("rules", new JsonArray());
    for (int i = 0; i < list.size(); i++) {
      rules.add(rule(list.getJsonObject(i), i));
    }
    return new RequirementMap(stig, rules);
  }

  private static Rule rule(JsonObject r, int index) {
    String stigId = r.getString("stigId", "");
    String where = "rule " + (index + 1) + " (" + (stigId.isEmpty() ? "no stigId" : stigId) + ")";
    String group = r.getString("groupId", "");
    String ruleId = r.getString("ruleId", "");
    if (!GROUP.matcher(group).matches() || !RULE.matcher(ruleId).matches() || stigId.isBlank()) {
      throw new IllegalArgumentException(where + " has a malformed groupId, ruleId or stigId");
    }
    String severity = r.getString("severity", "");
    if (!List.of("high", "medium", "low").contains(severity)) {
      throw new IllegalArgumentException(where + " has severity '" + severity + "'");
    }
    Disposition d;
    try {
      d = Disposition.valueOf(r.getString("disposition", "").toUpperCase().replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          where + " has disposition '" + r.getString("disposition") + "'");
    }
    String field =
        switch (d) {
          case AUTOMATED, BY_DESIGN -> "how";
          case NOT_APPLICABLE -> "why";
          case MANUAL, IMAGE -> "question";
        };
    String text = r.getString(field, "");
    if (text.isBlank()) {
      throw new IllegalArgumentException(where + " is " + d + " without its '" + field + "'");
    }
    String check = r.getString("check", "");
    if (d == Disposition.AUTOMATED && !CHECK.matcher(check).matches()) {
      throw new IllegalArgumentException(where + " is automated without a check id");
    }
    if (d == Disposition.IMAGE) {
      if (check.isBlank()) {
        throw new IllegalArgumentException(where + " is image without the 'check' it reads");
      }
      text = "Image check (to be run against the image root): " + check + " Until it runs: " + text;
    }
    List<String> ccis = new ArrayList<>();
    r.getJsonArray("ccis", new JsonArray()).forEach(c -> ccis.add(String.valueOf(c)));
    if (ccis.isEmpty() || !ccis.stream().allMatch(c -> CCI.matcher(c).matches())) {
      throw new IllegalArgumentException(where + " has no CCI, or a malformed one: " + ccis);
    }
    return new Rule(
        group,
        ruleId,
        stigId,
        severity,
        r.getString("title", ""),
        ccis,
        d,
        d == Disposition.AUTOMATED ? check : "",
        text);
  }
}
