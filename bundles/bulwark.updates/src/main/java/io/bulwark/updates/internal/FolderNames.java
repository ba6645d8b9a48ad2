package io.bulwark.updates.internal;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names the updater's files as admins read them: relative to the data folder (the parent of the
 * update state folder: {@code updates/incoming/upload-….bwu}, {@code keys/release.ecdsa.pem}),
 * packages on the update stick by their name there ({@code stick:release-0.3.0.bwu}), and files of
 * the working folder relative to it; never by the server's absolute path. Applied to every message
 * that reaches the API, the UI, the history or the audit log, the framework's and the JDK's among
 * them (a {@code NoSuchFileException} is its path). The log keeps absolute paths. Immutable.
 */
final class FolderNames {
  private static final String NOT_AFTER = "(?<![A-Za-z0-9._/-])";

  private record Root(Pattern inside, String prefix, Pattern itself, String name) {}

  private final Path data;
  private final List<Root> roots = new ArrayList<>();

  /**
   * @param data the data folder (absolute)
   * @param stick the update stick's mount point (absolute)
   * @param working the working folder (absolute)
   */
  FolderNames(Path data, Path stick, Path working) {
    this.data = data.toAbsolutePath().normalize();
    record Named(Path folder, String prefix, String name) {}
    List<Named> named =
        new ArrayList<>(
            List.of(
                new Named(stick.toAbsolutePath().normalize(), "stick:", "the update stick"),
                new Named(this.data, "", "the data folder"),
                new Named(working.toAbsolutePath().normalize(), "", "the working folder")));
    // the deepest folder first: the stick is usually in the data folder, the data folder in the
    // working folder
    named.sort(Comparator.comparingInt((Named n) -> n.folder().toString().length()).reversed());
    for (Named n : named) {
      String text = n.folder().toString();
      if (text.equals("/")) {
        continue;
      }
      // a whole path only: not the tail of a longer one, nor the start of a longer name
      roots.add(
          new Root(
              Pattern.compile(NOT_AFTER + Pattern.quote(text + "/")),
              n.prefix(),
              Pattern.compile(NOT_AFTER + Pattern.quote(text) + "(?![A-Za-z0-9._/-])"),
              n.name()));
    }
  }

  /** Returns {@code text} with every absolute path under a known folder named relatively. */
  String text(String text) {
    if (text == null) {
      return null;
    }
    String out = text;
    for (Root r : roots) {
      out = r.inside().matcher(out).replaceAll(Matcher.quoteReplacement(r.prefix()));
      out = r.itself().matcher(out).replaceAll(Matcher.quoteReplacement(r.name()));
    }
    return out;
  }

  /**
   * Returns how a folder is shown: relative to the data folder if it is in it, else as {@code
   * configured} (the setting an operator gave).
   */
  String folder(Path folder, String configured) {
    Path f = folder.toAbsolutePath().normalize();
    if (f.startsWith(data) && !f.equals(data)) {
      return data.relativize(f).toString();
    }
    return configured;
  }

  /** Returns {@code o} with every text in it, however deep, passed through {@link #text}. */
  JsonObject json(JsonObject o) {
    JsonObject out = new JsonObject();
    o.forEach(e -> out.put(e.getKey(), value(e.getValue())));
    return out;
  }

  private Object value(Object v) {
    if (v instanceof String s) {
      return text(s);
    }
    if (v instanceof JsonObject o) {
      return json(o);
    }
    if (v instanceof JsonArray a) {
      JsonArray out = new JsonArray();
      a.forEach(x -> out.add(value(x)));
      return out;
    }
    return v;
  }
}
