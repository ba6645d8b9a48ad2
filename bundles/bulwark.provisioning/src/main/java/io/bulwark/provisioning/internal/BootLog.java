package io.bulwark.provisioning.internal;

import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The last lines a machine's boot environment logged during its latest boot ({@code boot}, as the
 * plane names it; at most {@link #LINES}), keyed by machine id, or by MAC for a machine not
 * enlisted yet: what an operator reads when a boot stopped or missed its report.
 */
record BootLog(String key, String boot, List<String> lines, Instant at) {
  static final int LINES = 40;
  static final int LINE_CHARACTERS = 300;
  static final StoreMap<String, BootLog> MAP = StoreMap.byName("provisioning.log", new Format());

  BootLog {
    lines = List.copyOf(lines);
  }

  /** Returns this log with {@code more} lines appended (the oldest dropped past {@link #LINES}). */
  BootLog with(String thisBoot, List<String> more, Instant now) {
    List<String> all = new ArrayList<>(thisBoot.equals(boot) ? lines : List.of());
    all.addAll(more);
    return new BootLog(
        key, thisBoot, all.subList(Math.max(0, all.size() - LINES), all.size()), now);
  }

  /** Returns the last {@code n} lines joined with " | ", for a reason in words. */
  String tail(int n) {
    return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
  }

  static final class Format implements RecordFormat<BootLog> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(BootLog r, DataOutputStream out) throws IOException {
      out.writeUTF(r.key);
      out.writeUTF(r.boot);
      out.writeShort(r.lines.size());
      for (String l : r.lines) {
        out.writeUTF(l);
      }
      Records.writeInstant(out, r.at);
    }

    @Override
    public BootLog read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("boot log", version, 1);
      }
      String key = in.readUTF();
      String boot = in.readUTF();
      int n = in.readUnsignedShort();
      if (n > LINES) {
        throw new IOException("a boot log of " + n + " lines");
      }
      List<String> lines = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        lines.add(in.readUTF());
      }
      return new BootLog(key, boot, lines, Records.readInstant(in));
    }
  }
}
