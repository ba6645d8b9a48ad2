package io.bulwark.store.internal;

import io.bulwark.api.store.WritePriority;
import io.bulwark.store.internal.Notes.Note;
import java.nio.file.Path;

/**
 * A child process for the crash test: from the index given, writes notes (some spanning pages) into
 * three maps per transaction as fast as it can and prints "committed N" after each write returned,
 * until it is killed.
 */
public final class StoreWriterProcess {
  private StoreWriterProcess() {}

  public static void main(String[] args) {
    MapDbRecordStore store = new MapDbRecordStore(new StoreOptions(Path.of(args[0])));
    int from = args.length > 1 ? Integer.parseInt(args[1]) : 0;
    System.out.println("ready");
    System.out.flush();
    for (int i = from; ; i++) {
      String id = "note-" + i;
      Note note = Notes.note(id, 100 + (i % 7) * 3000);
      long number = i;
      store.write(
          "save " + id,
          WritePriority.ROUTINE,
          s -> {
            s.map(Notes.BY_ID).put(id, note);
            s.map(Notes.COPIES).put(id, note);
            s.map(Notes.BY_NUMBER).put(number, note);
            return null;
          });
      System.out.println("committed " + i);
      System.out.flush();
    }
  }
}
