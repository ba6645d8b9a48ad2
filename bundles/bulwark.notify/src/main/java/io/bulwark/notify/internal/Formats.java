package io.bulwark.notify.internal;

import io.bulwark.api.fleet.NodeId;
import io.bulwark.api.health.Finding;
import io.bulwark.api.health.FindingState;
import io.bulwark.api.health.Severity;
import io.bulwark.api.store.RecordFormat;
import io.bulwark.api.store.Records;
import io.bulwark.api.store.StoreMap;
import io.bulwark.notify.api.Notification;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The notification core's maps in the store and their record formats: the channels ({@code
 * notify.channels}), the outbox ({@code notify.outbox}, by number in delivery order) and what each
 * channel was told ({@code notify.told}: channel and finding id to the severity it was last sent,
 * so that a restart neither repeats an opening nor misses a resolution).
 */
final class Formats {
  static final StoreMap<String, ChannelDefinition> CHANNELS =
      StoreMap.byName("notify.channels", new ChannelFormat());
  static final StoreMap<Long, OutboxEntry> OUTBOX =
      StoreMap.byNumber("notify.outbox", new OutboxFormat());
  static final StoreMap<String, Told> TOLD = StoreMap.byName("notify.told", new ToldFormat());

  private Formats() {}

  /** What a channel was last told of a finding. */
  record Told(String channel, String findingId, Severity severity) {
    String key() {
      return key(channel, findingId);
    }

    static String key(String channel, String findingId) {
      return channel + "\u0000" + findingId;
    }
  }

  static final class ChannelFormat implements RecordFormat<ChannelDefinition> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(ChannelDefinition c, DataOutputStream out) throws IOException {
      out.writeUTF(c.name());
      out.writeUTF(c.type());
      writeMap(out, new TreeMap<>(c.settings()));
      Route r = c.route();
      out.writeByte(r.minSeverity().ordinal());
      out.writeInt(r.kinds().size());
      for (String k : new java.util.TreeSet<>(r.kinds())) {
        out.writeUTF(k);
      }
      out.writeInt(r.labels().size());
      for (Map.Entry<String, Set<String>> e : new TreeMap<>(r.labels()).entrySet()) {
        out.writeUTF(e.getKey());
        out.writeInt(e.getValue().size());
        for (String v : new java.util.TreeSet<>(e.getValue())) {
          out.writeUTF(v);
        }
      }
      out.writeBoolean(r.sendResolved());
      out.writeBoolean(c.enabled());
      out.writeBoolean(c.hasCredential());
      out.writeUTF(c.updatedBy());
      Records.writeInstant(out, c.updatedAt());
    }

    @Override
    public ChannelDefinition read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("notification channel", version, 1);
      }
      String name = in.readUTF();
      String type = in.readUTF();
      Map<String, String> settings = readMap(in);
      Severity min = severity(in.readUnsignedByte());
      Set<String> kinds = new LinkedHashSet<>();
      for (int i = in.readInt(); i > 0; i--) {
        kinds.add(in.readUTF());
      }
      Map<String, Set<String>> labels = new LinkedHashMap<>();
      for (int i = in.readInt(); i > 0; i--) {
        String key = in.readUTF();
        Set<String> values = new LinkedHashSet<>();
        for (int j = in.readInt(); j > 0; j--) {
          values.add(in.readUTF());
        }
        labels.put(key, values);
      }
      boolean resolved = in.readBoolean();
      return new ChannelDefinition(
          name,
          type,
          settings,
          new Route(min, kinds, labels, resolved),
          in.readBoolean(),
          in.readBoolean(),
          in.readUTF(),
          Records.readInstant(in));
    }
  }

  /** Version 2 adds the notice's text (version 1 entries are read with none). */
  static final class OutboxFormat implements RecordFormat<OutboxEntry> {
    @Override
    public int version() {
      return 2;
    }

    @Override
    public void write(OutboxEntry e, DataOutputStream out) throws IOException {
      out.writeLong(e.seq());
      out.writeUTF(e.channel());
      Notification n = e.notification();
      out.writeUTF(n.id());
      out.writeByte(n.event().ordinal());
      Records.writeInstant(out, n.at());
      writeMap(out, new TreeMap<>(n.nodeLabels()));
      writeFinding(out, n.finding());
      out.writeUTF(n.notice());
    }

    @Override
    public OutboxEntry read(int version, DataInputStream in) throws IOException {
      if (version != 1 && version != 2) {
        throw Records.unknownVersion("outbox", version, 2);
      }
      long seq = in.readLong();
      String channel = in.readUTF();
      String id = in.readUTF();
      int event = in.readUnsignedByte();
      if (event >= Notification.Event.values().length) {
        throw new IOException("unknown notification event " + event);
      }
      var at = Records.readInstant(in);
      Map<String, String> labels = readMap(in);
      Finding f = readFinding(in);
      String notice = version >= 2 ? in.readUTF() : "";
      return new OutboxEntry(
          seq,
          channel,
          new Notification(id, Notification.Event.values()[event], f, labels, at, notice));
    }
  }

  static final class ToldFormat implements RecordFormat<Told> {
    @Override
    public int version() {
      return 1;
    }

    @Override
    public void write(Told t, DataOutputStream out) throws IOException {
      out.writeUTF(t.channel());
      out.writeUTF(t.findingId());
      out.writeByte(t.severity().ordinal());
    }

    @Override
    public Told read(int version, DataInputStream in) throws IOException {
      if (version != 1) {
        throw Records.unknownVersion("told", version, 1);
      }
      return new Told(in.readUTF(), in.readUTF(), severity(in.readUnsignedByte()));
    }
  }

  private static void writeFinding(DataOutputStream out, Finding f) throws IOException {
    out.writeUTF(f.id());
    out.writeUTF(f.kind());
    out.writeUTF(f.node().value());
    out.writeInt(f.gpu());
    out.writeByte(f.severity().ordinal());
    out.writeByte(f.state().ordinal());
    Records.writeInstant(out, f.firstSeen());
    Records.writeInstant(out, f.lastSeen());
    Records.writeInstant(out, f.resolvedAt());
    out.writeUTF(f.summary());
    writeMap(out, new TreeMap<>(f.evidence()));
    out.writeUTF(f.recommendedAction());
    out.writeDouble(f.performanceFactor());
    out.writeLong(f.occurrences());
    out.writeUTF(f.gpuUuid());
  }

  private static Finding readFinding(DataInputStream in) throws IOException {
    String id = in.readUTF();
    String kind = in.readUTF();
    NodeId node = new NodeId(in.readUTF());
    int gpu = in.readInt();
    Severity severity = severity(in.readUnsignedByte());
    int state = in.readUnsignedByte();
    if (state >= FindingState.values().length) {
      throw new IOException("unknown finding state " + state);
    }
    try {
      return new Finding(
          id,
          kind,
          node,
          gpu,
          severity,
          FindingState.values()[state],
          Records.readInstant(in),
          Records.readInstant(in),
          Records.readInstant(in),
          in.readUTF(),
          readMap(in),
          in.readUTF(),
          in.readDouble(),
          in.readLong(),
          in.readUTF());
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IOException("not a finding: " + e.getMessage(), e);
    }
  }

  private static Severity severity(int ordinal) throws IOException {
    if (ordinal >= Severity.values().length) {
      throw new IOException("unknown severity " + ordinal);
    }
    return Severity.values()[ordinal];
  }

  private static void writeMap(DataOutputStream out, Map<String, String> map) throws IOException {
    out.writeInt(map.size());
    for (Map.Entry<String, String> e : map.entrySet()) {
      out.writeUTF(e.getKey());
      out.writeUTF(e.getValue());
    }
  }

  private static Map<String, String> readMap(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > 100_000) {
      throw new IOException("a map of " + n + " entries");
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      map.put(in.readUTF(), in.readUTF());
    }
    return map;
  }
}
