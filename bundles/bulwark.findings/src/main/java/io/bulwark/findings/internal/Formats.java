package io.bulwark.findings.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.MaintenanceWindow;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** The workflow's maps in the store: notes by finding id, maintenance windows by id. */
final class Formats {
  static final StoreMap<String, Note> NOTES = StoreMap.byName("findings.notes", new NoteFormat());
  static final StoreMap<String, MaintenanceWindow> MAINTENANCE =
      StoreMap.byName("maintenance", new WindowFormat());

  private Formats() {}

  static final class NoteFormat implements RecordFormat<Note> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(Note n, DataOutputStream out) throws IOException {
      out.writeUTF(n.findingId());
      text(out, n.acknowledgedBy());
      Records.writeInstant(out, n.acknowledgedAt());
      text(out, n.assignee());
      Records.writeInstant(out, n.snoozedUntil());
      text(out, n.snoozedBy());
      out.writeInt(n.steps().size());
      for (Note.Step s : n.steps()) {
        Records.writeInstant(out, s.at());
        out.writeUTF(s.event());
        out.writeUTF(s.by());
        out.writeUTF(s.text());
      }
    }

    @Override
    public Note read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("finding note", version, 1);
      }
      String id = in.readUTF();
      String ackBy = text(in);
      var ackAt = Records.readInstant(in);
      String assignee = text(in);
      var snoozed = Records.readInstant(in);
      String snoozedBy = text(in);
      int n = in.readInt();
      if (n < 0 || n > Note.MAX_STEPS) {
        throw new IOException("a note of " + n + " steps");
      }
      List<Note.Step> steps = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        steps.add(new Note.Step(Records.readInstant(in), in.readUTF(), in.readUTF(), in.readUTF()));
      }
      return new Note(id, ackBy, ackAt, assignee, snoozed, snoozedBy, steps);
    }
  }

  static final class WindowFormat implements RecordFormat<MaintenanceWindow> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(MaintenanceWindow w, DataOutputStream out) throws IOException {
      out.writeUTF(w.id());
      out.writeUTF(w.node().value());
      out.writeInt(w.gpu());
      Records.writeInstant(out, w.from());
      Records.writeInstant(out, w.until());
      out.writeUTF(w.reason());
      out.writeUTF(w.by());
    }

    @Override
    public MaintenanceWindow read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("maintenance window", version, 1);
      }
      try {
        return new MaintenanceWindow(
            in.readUTF(),
            new NodeId(in.readUTF()),
            in.readInt(),
            Records.readInstant(in),
            Records.readInstant(in),
            in.readUTF(),
            in.readUTF());
      } catch (IllegalArgumentException | NullPointerException e) {
        throw new IOException("not a maintenance window: " + e.getMessage(), e);
      }
    }
  }

  private static void text(DataOutputStream out, String s) throws IOException {
    out.writeBoolean(s != null);
    if (s != null) {
      out.writeUTF(s);
    }
  }

  private static String text(DataInputStream in) throws IOException {
    return in.readBoolean() ? in.readUTF() : null;
  }
}
