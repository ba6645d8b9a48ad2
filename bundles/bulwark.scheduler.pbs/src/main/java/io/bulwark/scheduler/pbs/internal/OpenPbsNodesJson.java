package io.bulwark.scheduler.pbs.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.bulwark.api.scheduler.SchedulerNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads what OpenPBS / PBS Professional's {@code pbsnodes -a -F json} and {@code pbsnodes -F json
 * <host>} print: an object whose {@code nodes} member maps each node name to its attributes ({@code
 * state}, {@code comment}, {@code queue}, {@code partition}, {@code jobs}, {@code
 * resources_available}...), or to {@code {"Error": "..."}} for a host the server could not show.
 * pbsnodes prints any value that reads as a number without quotes (a comment of "42" comes out as
 * {@code 42}), so values are taken as the text PBS printed, whatever their JSON type. Job entries
 * lose a {@code /<cpu>} suffix where one is left and are listed once each.
 */
final class OpenPbsNodesJson {
  private static final JsonFactory JSON = JsonFactory.builder().build();
  private static final int MAX_DEPTH = 32;

  private OpenPbsNodesJson() {}

  /**
   * Reads one listing.
   *
   * @throws PbsOutputException if the text is not JSON or has no {@code nodes} object
   */
  static PbsListing parse(String text) throws PbsOutputException {
    Object root;
    try (JsonParser parser = JSON.createParser(text)) {
      if (parser.nextToken() == null) {
        throw new PbsOutputException("it printed no JSON");
      }
      root = value(parser, 0);
      if (parser.nextToken() != null) {
        throw new PbsOutputException("it printed text after the JSON object");
      }
    } catch (IOException e) {
      throw new PbsOutputException("it printed something that is not JSON: " + firstLine(e), e);
    }
    if (!(root instanceof Map<?, ?> top) || !(top.get("nodes") instanceof Map<?, ?> nodes)) {
      throw new PbsOutputException("its JSON has no \"nodes\" object");
    }
    Map<String, SchedulerNode> found = new LinkedHashMap<>();
    Map<String, String> errors = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : nodes.entrySet()) {
      String name = (String) entry.getKey();
      if (!(entry.getValue() instanceof Map<?, ?> attributes)) {
        throw new PbsOutputException("node \"" + name + "\" is not a JSON object");
      }
      if (attributes.containsKey("Error") && !attributes.containsKey("state")) {
        errors.put(name, text(attributes.get("Error")));
      } else {
        found.put(name, node(name, attributes));
      }
    }
    return new PbsListing(found, errors);
  }

  private static SchedulerNode node(String name, Map<?, ?> attributes) {
    String state = text(attributes.get("state"));
    List<String> jobs = jobs(attributes.get("jobs"));
    Set<String> pools = new LinkedHashSet<>();
    addAll(pools, text(attributes.get("queue")));
    addAll(pools, text(attributes.get("partition")));
    if (attributes.get("resources_available") instanceof Map<?, ?> available) {
      addAll(pools, text(available.get("Qlist")));
    }
    return new SchedulerNode(
        name, PbsNodeStates.of(state, jobs), state, text(attributes.get("comment")), pools, jobs);
  }

  /** Job ids from a JSON array of entries, or from one comma-separated string of them. */
  private static List<String> jobs(Object value) {
    List<String> entries = new ArrayList<>();
    if (value instanceof List<?> list) {
      list.forEach(item -> entries.add(text(item)));
    } else {
      for (String entry : text(value).split(",")) {
        entries.add(entry);
      }
    }
    Set<String> ids = new LinkedHashSet<>();
    for (String entry : entries) {
      String id = entry.trim();
      int slash = id.indexOf('/');
      if (slash >= 0) {
        id = id.substring(0, slash).trim();
      }
      if (!id.isEmpty()) {
        ids.add(id);
      }
    }
    return List.copyOf(ids);
  }

  private static void addAll(Set<String> pools, String commaSeparated) {
    for (String pool : commaSeparated.split(",")) {
      if (!pool.isBlank()) {
        pools.add(pool.trim());
      }
    }
  }

  private static String text(Object value) {
    if (value == null) {
      return "";
    }
    return value instanceof String s ? s : String.valueOf(value);
  }

  private static Object value(JsonParser parser, int depth) throws IOException, PbsOutputException {
    if (depth > MAX_DEPTH) {
      throw new PbsOutputException("its JSON is nested deeper than " + MAX_DEPTH + " levels");
    }
    JsonToken token = parser.currentToken();
    if (token == null) {
      throw new PbsOutputException("its JSON ends in the middle");
    }
    switch (token) {
      case START_OBJECT:
        {
          Map<String, Object> object = new LinkedHashMap<>();
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            parser.nextToken();
            Object member = value(parser, depth + 1);
            Object earlier = object.get(key);
            if (earlier instanceof Map<?, ?> a && member instanceof Map<?, ?> b) {
              Map<String, Object> merged = new LinkedHashMap<>();
              a.forEach((k, v) -> merged.put((String) k, v));
              b.forEach((k, v) -> merged.put((String) k, v));
              member = merged;
            }
            object.put(key, member);
          }
          return object;
        }
      case START_ARRAY:
        {
          List<Object> array = new ArrayList<>();
          for (JsonToken next = parser.nextToken();
              next != JsonToken.END_ARRAY;
              next = parser.nextToken()) {
            array.add(value(parser, depth + 1));
          }
          return array;
        }
      case VALUE_NULL:
        return null;
      default:
        return parser.getText();
    }
  }

  private static String firstLine(IOException e) {
    String message =
        String.valueOf(
            e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage());
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }
}
