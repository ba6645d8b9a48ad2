package io.bulwark.scheduler.slurm.internal;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what {@code sinfo --json} prints in Slurm 22.05 (OpenAPI v0.0.38): an object with {@code
 * meta}, {@code errors} and {@code nodes}, one entry per node whatever its partitions, each with
 * {@code name}, {@code state} (base state, lower case), {@code state_flags} (upper case), {@code
 * reason} and {@code partitions}. sinfo exits with status 0 even when it could not reach slurmctld;
 * it then lists no nodes and puts what went wrong in {@code errors}, which is read here as a
 * failure. Options that select nodes ({@code --nodes}) are ignored by 22.05 in this mode, so the
 * listing is always the whole cluster.
 */
final class SinfoJson {
  private SinfoJson() {}

  /**
   * Reads one listing; nodes keep sinfo's order.
   *
   * @throws SlurmOutputException if the text is not such a listing, or its {@code errors} are not
   *     empty (the message then holds them)
   */
  static Map<String, SinfoNode> parse(String text) throws SlurmOutputException {
    JsonObject root;
    try {
      root = new JsonObject(text);
    } catch (RuntimeException e) {
      throw new SlurmOutputException(
          "it printed something that is not a JSON object: " + firstLine(e.getMessage()), e);
    }
    try {
      JsonArray errors = root.getJsonArray("errors", new JsonArray());
      if (!errors.isEmpty()) {
        throw new SlurmOutputException("sinfo reported " + describe(errors), true);
      }
      JsonArray nodes = root.getJsonArray("nodes");
      if (nodes == null) {
        throw new SlurmOutputException("its JSON has no \"nodes\" list");
      }
      Map<String, SinfoNode> found = new LinkedHashMap<>();
      for (int i = 0; i < nodes.size(); i++) {
        JsonObject node = nodes.getJsonObject(i);
        String name = node == null ? null : node.getString("name");
        String state = node == null ? null : node.getString("state");
        if (name == null || name.isEmpty() || state == null) {
          throw new SlurmOutputException(
              "node entry " + i + " has no \"name\" or \"state\": " + node);
        }
        found.put(
            name,
            new SinfoNode(
                name,
                state,
                strings(node.getJsonArray("state_flags")),
                node.getString("reason", ""),
                strings(node.getJsonArray("partitions"))));
      }
      return found;
    } catch (ClassCastException e) {
      throw new SlurmOutputException(
          "its JSON does not have the layout of Slurm 22.05's sinfo --json: " + e.getMessage(), e);
    }
  }

  private static List<String> strings(JsonArray array) {
    List<String> values = new ArrayList<>();
    if (array != null) {
      for (int i = 0; i < array.size(); i++) {
        values.add(array.getString(i));
      }
    }
    return values;
  }

  private static String describe(JsonArray errors) {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < errors.size(); i++) {
      Object entry = errors.getValue(i);
      if (entry instanceof JsonObject error) {
        StringBuilder text = new StringBuilder();
        text.append(error.getValue("error", "error"));
        Object number = error.getValue("errno", error.getValue("error_number"));
        if (number != null) {
          text.append(" (errno ").append(number).append(')');
        }
        Object description = error.getValue("description");
        if (description != null && !description.toString().isBlank()) {
          text.append(": ").append(description);
        }
        texts.add(text.toString());
      } else {
        texts.add(String.valueOf(entry));
      }
    }
    return String.join("; ", texts);
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
