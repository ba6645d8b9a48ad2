package io.bulwark.telemetry.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.bulwark.api.telemetry.ScrapeTarget;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a Prometheus {@code file_sd} document, {@code [{"targets": ["host:port", ...], "labels":
 * {...}}, ...]}, into scrape targets. The {@code __metrics_path__} and {@code __scheme__} labels
 * set the path and scheme; other labels starting with {@code __} are dropped, as Prometheus drops
 * them. A document that breaks these rules is refused as a whole, with a message that says which
 * entry is wrong and how.
 */
final class TargetsFile {
  static final String METRICS_PATH_LABEL = "__metrics_path__";
  static final String SCHEME_LABEL = "__scheme__";

  private TargetsFile() {}

  /**
   * Returns the targets of {@code json}, duplicates removed, in file order.
   *
   * @throws IllegalArgumentException if the document is not valid JSON or not a file_sd target list
   */
  static List<ScrapeTarget> parse(String json) {
    JsonArray entries;
    try {
      entries = new JsonArray(json);
    } catch (DecodeException | ClassCastException e) {
      // Never the parser's message: it quotes the file, which may hold anything.
      throw new IllegalArgumentException(
          "not a JSON array of target groups" + where(e.getCause()), e);
    }
    Set<ScrapeTarget> targets = new LinkedHashSet<>();
    for (int i = 0; i < entries.size(); i++) {
      Object entry = entries.getValue(i);
      if (!(entry instanceof JsonObject group)) {
        throw new IllegalArgumentException(
            "entry " + (i + 1) + " is not an object with \"targets\" and \"labels\"");
      }
      targets.addAll(group(group, i + 1));
    }
    return List.copyOf(targets);
  }

  private static List<ScrapeTarget> group(JsonObject group, int number) {
    Map<String, String> labels = labels(group.getValue("labels"), number);
    String scheme = labels.getOrDefault(SCHEME_LABEL, "http");
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("entry " + number + ": __scheme__ is not http or https");
    }
    String path = labels.getOrDefault(METRICS_PATH_LABEL, "/metrics");
    Map<String, String> kept = new LinkedHashMap<>();
    labels.forEach(
        (name, value) -> {
          if (!name.startsWith("__")) {
            kept.put(name, value);
          }
        });
    Object addresses = group.getValue("targets");
    if (!(addresses instanceof JsonArray list)) {
      throw new IllegalArgumentException("entry " + number + " has no \"targets\" array");
    }
    List<ScrapeTarget> targets = new ArrayList<>(list.size());
    for (int t = 0; t < list.size(); t++) {
      Object address = list.getValue(t);
      if (!(address instanceof String text) || text.isBlank()) {
        throw new IllegalArgumentException(
            "entry " + number + ": target " + (t + 1) + " is not a \"host:port\" string");
      }
      targets.add(new ScrapeTarget(checkAddress(text.strip(), number, t + 1), scheme, path, kept));
    }
    return targets;
  }

  private static Map<String, String> labels(Object labels, int number) {
    if (labels == null) {
      return Map.of();
    }
    if (!(labels instanceof JsonObject object)) {
      throw new IllegalArgumentException(
          "entry " + number + ": \"labels\" is not an object of strings");
    }
    Map<String, String> result = new LinkedHashMap<>();
    for (Map.Entry<String, Object> label : object) {
      if (!(label.getValue() instanceof String value)) {
        throw new IllegalArgumentException(
            "entry "
                + number
                + ": the value of a label is "
                + kind(label.getValue())
                + ", not a string");
      }
      result.put(label.getKey(), value);
    }
    return result;
  }

  private static String checkAddress(String address, int number, int target) {
    if (address.contains("://") || address.contains("/") || address.contains(" ")) {
      throw new IllegalArgumentException(
          "entry "
              + number
              + ": target "
              + target
              + " is not host:port"
              + " (put the scheme in __scheme__ and the path in __metrics_path__)");
    }
    if (address.startsWith(":")) {
      throw new IllegalArgumentException("entry " + number + ": target " + target + " has no host");
    }
    return address;
  }

  /** Returns " at line L, column C" for a JSON parser's error, else "". */
  private static String where(Throwable cause) {
    if (cause instanceof JsonProcessingException e && e.getLocation() != null) {
      return " (the JSON is invalid at line "
          + e.getLocation().getLineNr()
          + ", column "
          + e.getLocation().getColumnNr()
          + ")";
    }
    return " (the file is not valid JSON)";
  }

  private static String kind(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Number) {
      return "a number";
    }
    if (value instanceof Boolean) {
      return "true or false";
    }
    return value instanceof JsonArray ? "an array" : "an object";
  }
}
