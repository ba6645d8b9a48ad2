package io.bulwark.updates.internal;

import io.bulwark.lib.files.AtomicFile;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the updater keeps on disk, each file replaced atomically and synced before it is relied on:
 * {@code sets.json} (the running bundle set and the previous one, for a manual rollback), {@code
 * journal.json} (an install in progress: the set it started from and the one it moves to, written
 * before the first bundle is touched), {@code history.json} (the last 500 updates), {@code
 * revoked.json} (update keys revoked by verified packages) and {@code removed.json} (plugins an
 * admin removed, so a launcher that installs them again at a start has them removed again).
 */
final class UpdateState {
  static final int HISTORY = 500;

  /** An install in progress. */
  record Journal(String id, String phase, BundleSet from, BundleSet to, JsonObject entry) {
    JsonObject toJson() {
      return new JsonObject()
          .put("id", id)
          .put("phase", phase)
          .put("from", from.toJson())
          .put("to", to.toJson())
          .put("entry", entry);
    }

    static Journal fromJson(JsonObject o) {
      return new Journal(
          o.getString("id"),
          o.getString("phase"),
          BundleSet.fromJson(o.getJsonObject("from")),
          BundleSet.fromJson(o.getJsonObject("to")),
          o.getJsonObject("entry", new JsonObject()));
    }

    Journal phase(String next) {
      return new Journal(id, next, from, to, entry);
    }
  }

  private final Path folder;

  UpdateState(Path folder) {
    this.folder = folder;
  }

  Path folder() {
    return folder;
  }

  synchronized Optional<BundleSet> current() throws IOException {
    return set("current");
  }

  synchronized Optional<BundleSet> previous() throws IOException {
    return set("previous");
  }

  private Optional<BundleSet> set(String which) throws IOException {
    JsonObject o = read("sets.json");
    return o == null || o.getJsonObject(which) == null
        ? Optional.empty()
        : Optional.of(BundleSet.fromJson(o.getJsonObject(which)));
  }

  synchronized void sets(BundleSet current, BundleSet previous) throws IOException {
    JsonObject o = new JsonObject().put("current", current.toJson());
    if (previous != null) {
      o.put("previous", previous.toJson());
    }
    write("sets.json", o);
  }

  synchronized Optional<Journal> journal() throws IOException {
    JsonObject o = read("journal.json");
    return o == null ? Optional.empty() : Optional.of(Journal.fromJson(o));
  }

  synchronized void journal(Journal j) throws IOException {
    write("journal.json", j.toJson());
  }

  synchronized void endJournal() throws IOException {
    AtomicFile.delete(folder.resolve("journal.json"));
  }

  synchronized List<JsonObject> history() throws IOException {
    JsonObject o = read("history.json");
    List<JsonObject> out = new ArrayList<>();
    if (o != null) {
      for (Object e : o.getJsonArray("updates", new JsonArray())) {
        out.add((JsonObject) e);
      }
    }
    return out;
  }

  synchronized void record(JsonObject entry) throws IOException {
    List<JsonObject> h = history();
    h.add(0, entry);
    while (h.size() > HISTORY) {
      h.remove(h.size() - 1);
    }
    write("history.json", new JsonObject().put("updates", new JsonArray(new ArrayList<>(h))));
  }

  synchronized Set<String> revoked() throws IOException {
    JsonObject o = read("revoked.json");
    Set<String> out = new TreeSet<>();
    if (o != null) {
      o.getJsonArray("keys", new JsonArray()).forEach(k -> out.add((String) k));
    }
    return out;
  }

  synchronized void revoke(Set<String> keyIds) throws IOException {
    Set<String> all = revoked();
    if (all.addAll(keyIds)) {
      write("revoked.json", new JsonObject().put("keys", new JsonArray(new ArrayList<>(all))));
    }
  }

  /** The plugins an admin removed, by symbolic name, with where their jar is kept. */
  synchronized java.util.Map<String, String> removed() throws IOException {
    JsonObject o = read("removed.json");
    java.util.Map<String, String> out = new java.util.TreeMap<>();
    if (o != null) {
      o.getJsonObject("plugins", new JsonObject())
          .forEach(e -> out.put(e.getKey(), (String) e.getValue()));
    }
    return out;
  }

  synchronized void removed(String bsn, String source) throws IOException {
    java.util.Map<String, String> all = removed();
    if (!source.equals(all.put(bsn, source))) {
      write(
          "removed.json",
          new JsonObject().put("plugins", new JsonObject(new java.util.TreeMap<>(all))));
    }
  }

  /** Forgets that {@code bsn} was removed (it runs again). */
  synchronized void restored(String bsn) throws IOException {
    java.util.Map<String, String> all = removed();
    if (all.remove(bsn) != null) {
      write(
          "removed.json",
          new JsonObject().put("plugins", new JsonObject(new java.util.TreeMap<>(all))));
    }
  }

  private JsonObject read(String name) throws IOException {
    Path p = folder.resolve(name);
    if (!Files.exists(p)) {
      return null;
    }
    try {
      return new JsonObject(Files.readString(p, StandardCharsets.UTF_8));
    } catch (DecodeException | ClassCastException e) {
      throw new IOException(
          p + " is not valid JSON (" + e.getMessage() + "); restore it from backup or remove it",
          e);
    }
  }

  private void write(String name, JsonObject o) throws IOException {
    AtomicFile.write(folder.resolve(name), o.encodePrettily().getBytes(StandardCharsets.UTF_8));
  }
}
