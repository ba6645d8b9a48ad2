package io.bulwark.store.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.RecordStore;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import io.bulwark.api.store.WritePriority;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Optional;

/**
 * The records the store's own tests keep: a note is an id and a text, in maps of notes by id and by
 * number. Version 1 of the format; {@link #V2} adds a trailing line count, to show how an area
 * evolves its format.
 */
final class Notes {
  record Note(String id, String text) {}

  static final RecordFormat<Note> V1 = new Format(1);
  static final RecordFormat<Note> V2 = new Format(2);
  static final StoreMap<String, Note> BY_ID = StoreMap.byName("notes", V1);
  static final StoreMap<String, Note> COPIES = StoreMap.byName("notes.copies", V1);
  static final StoreMap<Long, Note> BY_NUMBER = StoreMap.byNumber("notes.log", V1);

  private Notes() {}

  /** Writes a note of about {@code bytes} bytes of text in one transaction. */
  static void put(RecordStore store, String id, int bytes) {
    put(store, id, bytes, WritePriority.ROUTINE);
  }

  static void put(RecordStore store, String id, int bytes, WritePriority priority) {
    Note note = note(id, bytes);
    store.write(
        "save note " + id,
        priority,
        s -> {
          s.map(BY_ID).put(id, note);
          return null;
        });
  }

  static Note note(String id, int bytes) {
    return new Note(id, ("note " + id + " ").repeat(Math.max(1, bytes / (id.length() + 6))));
  }

  static Optional<Note> get(RecordStore store, String id) {
    return Optional.ofNullable(store.read(s -> s.map(BY_ID).get(id)));
  }

  static int count(RecordStore store) {
    return store.read(s -> s.map(BY_ID).size());
  }

  private record Format(int version) implements RecordFormat<Note> {
    @Override
    public void write(Note value, DataOutputStream out) throws IOException {
      out.writeUTF(value.id());
      writeText(out, value.text());
      if (version >= 2) {
        out.writeInt((int) value.text().lines().count());
      }
    }

    @Override
    public Note read(int stored, DataInputStream in) throws IOException {
      if (stored > version) {
        throw Records.unknownVersion("note", stored, version);
      }
      Note note = new Note(in.readUTF(), readText(in));
      if (stored >= 2) {
        in.readInt();
      }
      return note;
    }

    private static void writeText(DataOutputStream out, String text) throws IOException {
      byte[] bytes = text.getBytes(UTF_8);
      out.writeInt(bytes.length);
      out.write(bytes);
    }

    private static String readText(DataInputStream in) throws IOException {
      byte[] bytes = new byte[in.readInt()];
      in.readFully(bytes);
      return new String(bytes, UTF_8);
    }
  }
}
