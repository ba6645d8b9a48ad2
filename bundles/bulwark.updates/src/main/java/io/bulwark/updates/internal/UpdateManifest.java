package io.bulwark.updates.internal;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.osgi.framework.Version;
import org.osgi.framework.VersionRange;

/**
 * An update package's manifest ({@code manifest.json}, the file both signatures are over): what the
 * package is ({@code version}), which running versions it applies to ({@code appliesTo}, OSGi
 * version ranges), whether installing it needs a restart, its release notes, the update keys it
 * revokes (their ids), and every other file of the package with its size and SHA-384.
 *
 * @param version the package's version
 * @param appliesTo the running versions it may be installed on
 * @param restart true if it takes effect only after a restart
 * @param notes the release notes, plain text
 * @param revokes ids of update keys no package may be trusted by any more
 * @param files every file of the package but the manifest and its signatures
 */
record UpdateManifest(
    Version version,
    List<VersionRange> appliesTo,
    boolean restart,
    String notes,
    Set<String> revokes,
    List<Entry> files) {
  static final int FORMAT = 1;
  static final int MAX_BYTES = 1 << 20;
  static final int MAX_FILES = 4_096;
  static final long MAX_FILE_BYTES = 8L << 30;
  static final long MAX_TOTAL_BYTES = 16L << 30;
  private static final Pattern HEX384 = Pattern.compile("[0-9a-f]{96}");
  private static final Pattern KEY_ID = Pattern.compile("[0-9a-f]{16,64}");

  /** One file of the package. */
  record Entry(String path, long size, String sha384) {}

  UpdateManifest {
    appliesTo = List.copyOf(appliesTo);
    revokes = Set.copyOf(revokes);
    files = List.copyOf(files);
  }

  /** Returns true if the package may be installed on {@code running}. */
  boolean appliesTo(Version running) {
    return appliesTo.stream().anyMatch(r -> r.includes(running));
  }

  /** Returns the entry of {@code path}, or null. */
  Entry entry(String path) {
    return files.stream().filter(e -> e.path().equals(path)).findFirst().orElse(null);
  }

  /** Returns the total size of the package's files. */
  long totalBytes() {
    return files.stream().mapToLong(Entry::size).sum();
  }

  /**
   * Reads a manifest, strictly: unknown fields are refused too, so that nothing it says is
   * overlooked.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  static UpdateManifest parse(byte[] bytes) {
    if (bytes.length > MAX_BYTES) {
      throw new IllegalArgumentException(
          "the manifest is " + bytes.length + " bytes; at most " + MAX_BYTES);
    }
    JsonObject o;
    try {
      o = new JsonObject(new String(bytes, StandardCharsets.UTF_8));
    } catch (DecodeException | ClassCastException e) {
      throw new IllegalArgumentException("the manifest is not a JSON object: " + e.getMessage());
    }
    Set<String> known =
        Set.of("format", "version", "appliesTo", "restart", "notes", "revokes", "files");
    for (String field : o.fieldNames()) {
      if (!known.contains(field)) {
        throw new IllegalArgumentException("the manifest has an unknown field '" + field + "'");
      }
    }
    if (!(o.getValue("format") instanceof Number n) || n.intValue() != FORMAT) {
      throw new IllegalArgumentException(
          "the manifest's format is " + o.getValue("format") + "; this appliance reads " + FORMAT);
    }
    Version version;
    try {
      version = Version.parseVersion(text(o, "version"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the manifest's version is not a version: " + e.getMessage());
    }
    List<VersionRange> ranges = new ArrayList<>();
    for (Object r : array(o, "appliesTo")) {
      try {
        ranges.add(new VersionRange(String.valueOf(r)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "'" + r + "' in appliesTo is not a version range such as [0.1.0,0.2.0)");
      }
    }
    if (ranges.isEmpty()) {
      throw new IllegalArgumentException("the manifest's appliesTo names no version range");
    }
    if (!(o.getValue("restart") instanceof Boolean restart)) {
      throw new IllegalArgumentException("the manifest's restart is true or false");
    }
    String notes = o.getValue("notes") instanceof String s ? s : null;
    if (notes == null) {
      throw new IllegalArgumentException("the manifest has no release notes ('notes')");
    }
    Set<String> revokes = new HashSet<>();
    Object r = o.getValue("revokes");
    if (r != null) {
      if (!(r instanceof JsonArray a)) {
        throw new IllegalArgumentException("the manifest's revokes is a list of key ids");
      }
      for (Object id : a) {
        if (!(id instanceof String s) || !KEY_ID.matcher(s).matches()) {
          throw new IllegalArgumentException("'" + id + "' in revokes is not a key id (hex)");
        }
        revokes.add(s);
      }
    }
    List<Entry> files = new ArrayList<>();
    Set<String> paths = new HashSet<>();
    long total = 0;
    JsonArray list = array(o, "files");
    if (list.size() > MAX_FILES) {
      throw new IllegalArgumentException(
          "the manifest lists " + list.size() + " files; at most " + MAX_FILES);
    }
    for (Object f : list) {
      if (!(f instanceof JsonObject e)) {
        throw new IllegalArgumentException("each of the manifest's files is an object");
      }
      String path = text(e, "path");
      String problem = PackagePath.problem(path);
      if (problem != null) {
        throw new IllegalArgumentException("the manifest lists " + problem);
      }
      if (!paths.add(path)) {
        throw new IllegalArgumentException("the manifest lists '" + path + "' twice");
      }
      if (!(e.getValue("size") instanceof Number size)
          || size.longValue() < 0
          || size.longValue() != size.doubleValue()
          || size.longValue() > MAX_FILE_BYTES) {
        throw new IllegalArgumentException(
            "the size of '" + path + "' is not a whole number of at most " + MAX_FILE_BYTES);
      }
      total += size.longValue();
      String sha = text(e, "sha384");
      if (!HEX384.matcher(sha).matches()) {
        throw new IllegalArgumentException("the sha384 of '" + path + "' is not 96 hex digits");
      }
      files.add(new Entry(path, size.longValue(), sha));
    }
    if (total > MAX_TOTAL_BYTES) {
      throw new IllegalArgumentException(
          "the package's files are " + total + " bytes; at most " + MAX_TOTAL_BYTES);
    }
    return new UpdateManifest(version, ranges, restart, notes, revokes, files);
  }

  /** Writes the manifest as {@link #parse} reads it. */
  byte[] encode() {
    JsonArray list = new JsonArray();
    for (Entry e : files) {
      list.add(
          new JsonObject().put("path", e.path()).put("size", e.size()).put("sha384", e.sha384()));
    }
    JsonArray ranges = new JsonArray();
    appliesTo.forEach(r -> ranges.add(r.toString()));
    return new JsonObject()
        .put("format", FORMAT)
        .put("version", version.toString())
        .put("appliesTo", ranges)
        .put("restart", restart)
        .put("notes", notes)
        .put("revokes", new JsonArray(revokes.stream().sorted().toList()))
        .put("files", list)
        .encodePrettily()
        .getBytes(StandardCharsets.UTF_8);
  }

  private static String text(JsonObject o, String field) {
    if (!(o.getValue(field) instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException("the manifest has no '" + field + "'");
    }
    return s;
  }

  private static JsonArray array(JsonObject o, String field) {
    if (!(o.getValue(field) instanceof JsonArray a)) {
      throw new IllegalArgumentException("the manifest's '" + field + "' is not a list");
    }
    return a;
  }
}
