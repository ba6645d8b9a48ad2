package io.bulwark.updates.internal;

import java.util.regex.Pattern;

/**
 * The names a file may have inside an update package: relative, '/'-separated, of plain segments
 * (letters, digits, '.', '_', '-', '+'), at most 200 characters, under one of the package's folders
 * ({@code bundles/}, {@code plugins/}, {@code images/}, {@code os/}) or the repository index {@code
 * index.xml}. Nothing that could leave the staging folder (no {@code ..}, no absolute path, no
 * backslash, no empty or hidden segment) and nothing a file system would read another way.
 */
final class PackagePath {
  static final int MAX_LENGTH = 200;
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_+-][A-Za-z0-9._+-]{0,99}");

  private PackagePath() {}

  /** Returns why {@code path} cannot be a file of a package, or null if it can. */
  static String problem(String path) {
    if (path == null || path.isEmpty()) {
      return "an empty path";
    }
    if (path.length() > MAX_LENGTH) {
      return "a path of " + path.length() + " characters (at most " + MAX_LENGTH + ")";
    }
    if (path.startsWith("/") || path.contains("\\") || path.contains(":")) {
      return "'" + printable(path) + "' is not a relative '/'-separated path";
    }
    String[] segments = path.split("/", -1);
    for (String s : segments) {
      if (s.equals("..") || s.equals(".")) {
        return "'" + printable(path) + "' leaves its folder";
      }
      if (!SEGMENT.matcher(s).matches()) {
        return "'"
            + printable(path)
            + "' has a segment that is empty, hidden or holds other characters";
      }
    }
    if (segments.length == 1) {
      return path.equals("index.xml")
          ? null
          : "'" + path + "' is not in bundles/, plugins/, images/ or os/";
    }
    return switch (segments[0]) {
      case "bundles", "plugins", "images", "os" -> null;
      default -> "'" + printable(path) + "' is not in bundles/, plugins/, images/ or os/";
    };
  }

  /** The path with anything unprintable shown as '?', for a message. */
  static String printable(String path) {
    StringBuilder b = new StringBuilder();
    path.codePoints()
        .limit(MAX_LENGTH)
        .forEach(c -> b.appendCodePoint(c < 0x20 || c == 0x7f || c > 0x7e ? '?' : c));
    return b.toString();
  }
}
